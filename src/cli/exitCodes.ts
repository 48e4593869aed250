export const EXIT_OK = 0;
/** Not passed (evaluate), catalog errors (validate), or calibrate --apply refused. */
export const EXIT_FAILED = 1;
/** Bad arguments, an unreadable input, a catalog or model error: nothing was decided. */
export const EXIT_ERROR = 2;
/** Exit code after Ctrl-C (128 + SIGINT). */
export const EXIT_CANCELLED = 130;
