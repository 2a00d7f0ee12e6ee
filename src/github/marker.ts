/** Carried by every comment the action writes, so it never answers itself. */
export const TRACKING_MARKER = '<!-- agent-action -->';
