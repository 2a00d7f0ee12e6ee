export {
  diffFileFromPullFile,
  parsePatch,
  parseUnifiedDiff,
  type DiffFile,
  type DiffFileStatus,
  type Hunk,
  type LineRange,
  type PullFile,
} from './diff.js';
export {
  commentText,
  Findings,
  renderBody,
  SEVERITIES,
  suggestionBlock,
  type EarlierComment,
  type Finding,
  type Severity,
  type Side,
} from './findings.js';
export {
  REVIEW_COMMENT,
  reviewCommentSchema,
  reviewCommentTool,
  withReviewComment,
  type ReviewCommentInput,
  type ReviewCommentTool,
} from './review-comment.js';
