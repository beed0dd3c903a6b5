/** The longest window an event listing reads (list_events, and the rules tools' reads). */
export const MAX_WINDOW_DAYS = 400;
