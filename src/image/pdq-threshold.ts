/**
 * The distance (bits of 256) within which two PDQ hashes are taken for copies of one picture:
 * `geo history --like` and "seen before" use it unless told otherwise. Chosen by `geo eval
 * --copies` on the calibration set of 1,000 pictures and 13,000 copies: the largest distance at
 * which at most 1 pair of distinct pictures in 10,000 matches (35 of 499,500 did), finding 99.9%
 * or more of re-encodings, resizes and stripped copies. docs/internals/pdq-calibration.md has
 * the figures, what it misses (crops, screenshots), and what a smaller distance would trade.
 */
export const DEFAULT_LIKE_DISTANCE = 95;
