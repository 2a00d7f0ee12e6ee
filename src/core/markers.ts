/** Carried by every comment the action writes, so it never answers itself. */
export const TRACKING_MARKER = '<!-- agent-action -->';

/** The one tracking comment per pull request of mode review, edited across pushes (beside the marker above). */
export const REVIEW_TRACKING_MARKER = '<!-- agent-action:review-tracking -->';
