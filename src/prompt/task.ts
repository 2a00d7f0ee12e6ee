import type { TaskContext } from '../github/context.js';
import { quoteUntrusted } from '../untrusted/fence.js';
import { changedFilesList } from './file-list.js';
import { threadSection } from './thread.js';
import { sanitizeUntrusted } from '../untrusted/sanitize.js';

function section(title: string, body: string): string {
  return `## ${title}\n${body}`;
}

function pullSection(pull: NonNullable<TaskContext['pull']>): string {
  const files = changedFilesList(pull.files, pull.changedFiles);
  const cut = pull.diffCut > 0 ? `\n[diff cut: ${pull.diffCut} more characters; use git diff origin/${pull.baseRef} for the rest]` : '';
  const fork = pull.isFork ? ' (from a fork: nothing will be pushed; your diff will be posted)' : '';
  const lines = [
    `Pull request #${pull.number} by @${pull.author}: ${pull.headRepoFullName}:${pull.headRef} into ${pull.baseRef}${fork}.`,
    quoteUntrusted('pull_request_title', pull.title),
    quoteUntrusted('pull_request_body', pull.body),
    `Changed files:\n${files}`,
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
    const body = `${quoteUntrusted('issue_title', i.title)}\n${quoteUntrusted('issue_body', i.body)}`;
    parts.push(section(`Issue #${i.number} by @${i.author}`, body));
  }
  if (context.pull) parts.push(pullSection(context.pull));
  if (context.reviewComment) {
    const r = context.reviewComment;
    const where = `On ${r.path}${r.line ? ` line ${r.line}` : ''} by @${r.author}:`;
    const hunk = quoteUntrusted('diff_hunk', r.diffHunk, { verbatim: true });
    parts.push(section('Review comment', `${where}\n${hunk}\n${quoteUntrusted('review_comment', r.body)}`));
  }
  if (context.comments.length > 0) {
    parts.push(section('Conversation so far', threadSection(context.comments)));
  }
  if (context.failingChecks.length > 0) {
    const checks = context.failingChecks
      .map((c) => {
        const log = c.logTail ? `\n${quoteUntrusted('check_log', c.logTail, { verbatim: true })}` : ' (log not readable with this token)';
        return `- ${c.name}: ${c.conclusion}${log}`;
      })
      .join('\n');
    parts.push(section('Failing checks', checks));
  }
  if (context.instructions) {
    const { path, content } = context.instructions;
    parts.push(section(`Repository instructions (${path}, from the base branch)`, sanitizeUntrusted(content)));
  }
  return parts.join('\n\n');
}
