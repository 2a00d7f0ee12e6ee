import type { TaskContext } from '../github/context.js';
import { quoteUntrusted, sanitizeUntrusted } from '../github/sanitize.js';

function section(title: string, body: string): string {
  return `## ${title}\n${body}`;
}

function pullSection(pull: NonNullable<TaskContext['pull']>): string {
  const files = pull.files.map((f) => `- ${f.filename} (${f.status}, +${f.additions} -${f.deletions})`).join('\n');
  const cut = pull.diffCut > 0 ? `\n[diff cut: ${pull.diffCut} more characters; use git diff origin/${pull.baseRef} for the rest]` : '';
  const lines = [
    `Pull request #${pull.number} by @${pull.author}: ${pull.headRepoFullName}:${pull.headRef} into ${pull.baseRef}${pull.isFork ? ' (from a fork: nothing will be pushed; your diff will be posted)' : ''}.`,
    quoteUntrusted('pull_request_title', pull.title),
    quoteUntrusted('pull_request_body', pull.body),
    `Changed files:\n${files || '(none)'}`,
    quoteUntrusted('diff', pull.diff, { verbatim: true }) + cut,
  ];
  return section('Pull request', lines.join('\n\n'));
}

/**
 * The first user message: the task, then the context it came with. Everything taken from
 * GitHub is sanitized and fenced as untrusted data.
 */
export function taskPrompt(context: TaskContext, workspaceNote: string): string {
  const t = context.trigger;
  const who = t.requester ? `@${t.requester.login}` : 'the workflow';
  const parts: string[] = [];
  parts.push(section('Task', `${who} asked (via ${t.source}):\n${quoteUntrusted('task', t.task)}`));
  parts.push(section('Repository', `${context.repo.fullName}. ${workspaceNote}`));
  if (context.issue && !context.pull) {
    const i = context.issue;
    parts.push(section(`Issue #${i.number} by @${i.author}`, `${quoteUntrusted('issue_title', i.title)}\n${quoteUntrusted('issue_body', i.body)}`));
  }
  if (context.pull) parts.push(pullSection(context.pull));
  if (context.reviewComment) {
    const r = context.reviewComment;
    parts.push(section('Review comment', `On ${r.path}${r.line ? ` line ${r.line}` : ''} by @${r.author}:\n${quoteUntrusted('diff_hunk', r.diffHunk, { verbatim: true })}\n${quoteUntrusted('review_comment', r.body)}`));
  }
  if (context.comments.length > 0) {
    const thread = context.comments.map((c) => `@${c.author} at ${c.createdAt}:\n${quoteUntrusted('comment', c.body)}`).join('\n\n');
    parts.push(section('Conversation so far', thread));
  }
  if (context.failingChecks.length > 0) {
    const checks = context.failingChecks
      .map((c) => `- ${c.name}: ${c.conclusion}${c.logTail ? `\n${quoteUntrusted('check_log', c.logTail, { verbatim: true })}` : ' (log not readable with this token)'}`)
      .join('\n');
    parts.push(section('Failing checks', checks));
  }
  if (context.instructions) {
    parts.push(section(`Repository instructions (${context.instructions.path}, from the base branch)`, sanitizeUntrusted(context.instructions.content)));
  }
  return parts.join('\n\n');
}
