import { createRequire } from 'node:module';
import type { WebhookDefinition } from '@octokit/webhooks-examples';

/**
 * Real webhook payloads from @octokit/webhooks-examples. The package is one JSON file (its
 * `main`), so it is loaded through require, which reads JSON, rather than an ESM import, which
 * would need import attributes.
 */

export type ExampleEvent = WebhookDefinition['name'];
export type ExamplePayload<E extends ExampleEvent> = WebhookDefinition<E>['examples'][number];

let definitions: WebhookDefinition[] | undefined;

function allDefinitions(): WebhookDefinition[] {
  if (!definitions) {
    const loaded = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];
    definitions = loaded;
  }
  return definitions;
}

/** A deep copy of the first example of `event` that `match` accepts, so tests may edit it freely. */
export function loadExample<E extends ExampleEvent>(
  event: E,
  match: (payload: ExamplePayload<E>) => boolean = () => true,
): ExamplePayload<E> {
  const definition = allDefinitions().find((d): d is WebhookDefinition<E> => d.name === event);
  const example = definition?.examples.find(match);
  if (!example) throw new Error(`no ${event} example matches`);
  return structuredClone(example);
}

/** An issue_comment payload on a pull request: the package has none, so an issue's gets the `pull_request` link GitHub adds. */
export function issueCommentOnPull(): ExamplePayload<'issue_comment'> {
  const payload = loadExample('issue_comment', (p) => p.action === 'created');
  const { html_url: issueUrl, number } = payload.issue;
  const pullUrl = issueUrl.replace(/\/issues\/(\d+)$/, '/pull/$1');
  const apiUrl = `${payload.repository.url}/pulls/${number}`;
  return {
    ...payload,
    issue: {
      ...payload.issue,
      html_url: pullUrl,
      pull_request: { url: apiUrl, html_url: pullUrl, diff_url: `${pullUrl}.diff`, patch_url: `${pullUrl}.patch` },
    },
  };
}
