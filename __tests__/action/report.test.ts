import { concluded } from '../../src/action/report.js';

describe('concluded', () => {
  it('keeps the loop’s conclusion when everything reached GitHub', () => {
    expect(concluded({ conclusion: 'success', reason: '' }, [])).toEqual({ conclusion: 'success', reason: '' });
    expect(concluded({ conclusion: 'timeout', reason: 'the time limit' }, [])).toEqual({ conclusion: 'timeout', reason: 'the time limit' });
  });

  it('turns any undelivered entry into undelivered, naming each, and the loop’s own stop', () => {
    expect(concluded({ conclusion: 'success', reason: '' }, ['the pull request: 403', 'the final comment: timeout'])).toEqual({
      conclusion: 'undelivered',
      reason: 'not delivered to GitHub: the pull request: 403; the final comment: timeout',
    });
    expect(concluded({ conclusion: 'max-steps', reason: 'max-steps reached' }, ['the review: 422']).reason).toBe(
      'not delivered to GitHub: the review: 422 (the run itself ended max-steps: max-steps reached)',
    );
  });

  it('leaves a cancelled run cancelled: the cancel is why the rest did not arrive', () => {
    expect(concluded({ conclusion: 'cancelled', reason: 'SIGTERM' }, ['the final comment: no time left'])).toEqual({
      conclusion: 'cancelled',
      reason: 'SIGTERM',
    });
  });
});
