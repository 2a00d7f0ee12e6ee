import * as core from '@actions/core';

/**
 * The action's entry. Until the GitHub adapter lands it only reports that the event holds no
 * trigger it acts on, so that a workflow using it ends cleanly.
 */
export async function run(): Promise<void> {
  try {
    const event = process.env['GITHUB_EVENT_NAME'] ?? 'unknown';
    core.info(`agent-action: no trigger found in the ${event} event; nothing to do`);
    core.setOutput('conclusion', 'skipped');
  } catch (error) {
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}
