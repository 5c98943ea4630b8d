#ifndef PREC_RECORDER_STATUS_LINE_H
#define PREC_RECORDER_STATUS_LINE_H
/*
 * The live status line on a terminal (status_line.c): elapsed time,
 * samples, data written (and its zstd size with -z), events lost,
 * rotations, redrawn at most STATUS_LINE_PERIOD_MS apart.
 *
 * The command shares the terminal, and its output cannot be seen or
 * delayed by prec; so the line lives in a row of its own: the terminal's
 * bottom row is taken out of the scrolling region (DECSTBM, as apt's
 * progress bar), every draw goes there with the cursor saved and restored
 * in one write(), and everything else (the command's output, prec's own
 * messages) scrolls above it, whole, without being erased or cut. At the
 * end the row is cleared and the region given back, before the summary.
 *
 * Only when stderr is a terminal and neither -q, PREC_NO_STATUS (non-empty,
 * not "0") nor TERM=dumb (or no TERM) says otherwise. The cost on the
 * drain's path is one coarse clock read per call; formatting only when due.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct drain;
struct streams;

/* What the status line needs of the options (status_line_config__init in
 * record_prepare.c builds it once). */
struct status_line_config {
	bool quiet; /* -q: no line */
	bool comp; /* -z: show what the compressor wrote */
	bool rotating; /* --switch-output: show the rotations */
};

/* The time between two draws (the first comes after two): a recording
 * shorter than half a second writes no byte of status. */
#define STATUS_LINE_PERIOD_MS 250

/* The size assumed when the terminal says 0 rows (a pseudo-terminal nobody
 * sized, as under script(1) with no terminal of its own). */
#define STATUS_LINE_ROWS 24
#define STATUS_LINE_COLS 80

/* What one draw shows. */
struct status_counts {
	uint64_t elapsed_ms;
	uint64_t samples;
	uint64_t bytes; /* ring data written (uncompressed) */
	uint64_t comp_bytes; /* -z: what the compressor wrote */
	uint64_t lost; /* events the kernel dropped (PERF_RECORD_LOST) */
	unsigned rotations; /* --switch-output: files ended so far */
	bool comp; /* -z: show comp_bytes */
	bool rotating; /* --switch-output: show rotations */
};

/* What the output says of itself (output__status). */
struct status_output {
	unsigned rotations; /* files ended so far */
	uint64_t comp_bytes; /* -z: what the compressors wrote, the ended files' included */
	bool comp_known; /* comp_bytes is known while recording (not per stream) */
};

struct status_line {
	int fd; /* the terminal; -1: no status line */
	int rows, cols; /* its size at the last draw; 0 before the first */
	uint64_t start_ms, next_ms; /* CLOCK_MONOTONIC_COARSE */
	bool comp, rotating;
};

/* Whether a status line belongs on fd for c (a terminal, not -q, not
 * opted out by the environment). */
bool status_line__wanted(const struct status_line_config *c, int fd);

/* Starts the clock of s, and asks d (the main loop's drain) for a tick of
 * the redraw period when s is on (d may be NULL: a loop that wakes often
 * enough); fd -1 (or not wanted) leaves s off, every call a no-op. */
void status_line__init(struct status_line *s, const struct status_line_config *c, int fd,
		       struct drain *d);

/* After a drain pass or a wait tick: redraws when due, from the streams'
 * counts (read without locks: threaded streams add to them meanwhile) and
 * what the output says of itself (-z, rotations). */
void status_line__tick(struct status_line *s, const struct streams *ss,
		       const struct status_output *so);

/* Clears the line and gives the terminal its whole scrolling region back,
 * if anything was drawn; s is off afterwards. Idempotent. */
void status_line__end(struct status_line *s);

/* Pure, for tests. */

/* bytes as "512 B", "12.3 KB", "45.67 MB" or "1.23 GB" (1024-based) into
 * buf. Returns the length snprintf gives. */
int status_line__size(char *buf, size_t len, uint64_t bytes);

/* The text for c, at most width columns (cut, never wrapped: a wrap in the
 * bottom row would scroll the screen). Returns its length. */
int status_line__format(char *buf, size_t len, const struct status_counts *c, int width);

/* The bytes that reserve the bottom row of a rows-high terminal (the
 * cursor kept in the scrolling region); make_room: first time, a newline
 * before, so that the row taken is a blank one. Returns the length. */
int status_line__setup_seq(char *buf, size_t len, int rows, bool make_room);

/* The bytes that draw text in the bottom row (row rows) and put the cursor
 * back. Returns the length. */
int status_line__draw_seq(char *buf, size_t len, int rows, const char *text);

/* The bytes that clear row rows and give the whole screen back to
 * scrolling, the cursor where it was. Returns the length. */
int status_line__erase_seq(char *buf, size_t len, int rows);

#endif
