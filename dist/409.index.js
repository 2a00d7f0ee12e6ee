export const id = 409;
export const ids = [409,927];
export const modules = {

/***/ 3409:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  deliver: () => (/* binding */ deliver),
  newBranchName: () => (/* binding */ newBranchName)
});

// UNUSED EXPORTS: commitSubject

// EXTERNAL MODULE: ./.tmp/build/git/repo.js
var git_repo = __webpack_require__(5927);
// EXTERNAL MODULE: ./.tmp/build/github/client.js + 25 modules
var client = __webpack_require__(9673);
;// CONCATENATED MODULE: ./.tmp/build/github/pulls.js

async function existing(gh, spec) {
    const { data } = await gh.rest.pulls.list({ owner: spec.owner, repo: spec.repo, head: `${spec.owner}:${spec.head}`, state: 'open', per_page: 10 });
    const hit = data[0];
    return hit ? { number: hit.number, url: hit.html_url, created: false } : null;
}
/**
 * Opens the pull request once. A 5xx may arrive after GitHub made it, so on a transient error
 * (and before creating at all) an open pull request for the branch is looked for first.
 */
async function openPullRequest(gh, spec) {
    const before = await existing(gh, spec);
    if (before)
        return before;
    const create = async () => {
        const { data } = await gh.rest.pulls.create({ owner: spec.owner, repo: spec.repo, head: spec.head, base: spec.base, title: spec.title, body: spec.body, draft: spec.draft, request: { retries: 0 } });
        return { number: data.number, url: data.html_url, created: true };
    };
    try {
        return await create();
    }
    catch (error) {
        const status = (0,client/* statusOf */.c)(error);
        if (status !== undefined && status < 500 && status !== 422)
            throw error;
        const after = await existing(gh, spec);
        if (after)
            return after;
        if (status === 422)
            throw error;
        return create();
    }
}

;// CONCATENATED MODULE: ./.tmp/build/action/deliver.js


function commitSubject(task) {
    const first = task.split('\n').find((l) => l.trim() !== '')?.trim() ?? 'agent changes';
    const subject = `agent: ${first}`;
    return subject.length > 72 ? `${subject.slice(0, 71)}…` : subject;
}
function coAuthor(requester) {
    if (!requester)
        return [];
    const email = requester.id ? `${requester.id}+${requester.login}@users.noreply.github.com` : `${requester.login}@users.noreply.github.com`;
    return [{ name: requester.login, email }];
}
/** The branch name for new work; never one that exists on the remote already. */
async function newBranchName(repo, prefix, issueNumber, task, runId) {
    const base = issueNumber !== null ? `${prefix}issue-${issueNumber}-${(0,git_repo.slugify)(task, 30)}`.replace(/-+$/, '') : `${prefix}run-${runId}`;
    const name = await repo.uniqueBranchName(base);
    if (!(await repo.isValidBranchName(name)))
        throw new Error(`refusing to create branch "${name}": not a valid branch name`);
    return name;
}
/** Commits what the run changed and pushes it where pushing is allowed; opens the pull request. */
async function deliver(o) {
    const changedFiles = await o.repo.changedFiles();
    const [diff, diffStat] = await Promise.all([o.repo.diff(), o.repo.diffStat()]);
    const base = { changedFiles, diff, diffStat, pushed: false };
    if (changedFiles.length === 0)
        return { ...base, note: 'No files were changed, so nothing was committed.' };
    if (o.plan.kind === 'fork') {
        return { ...base, note: 'This pull request comes from a fork: nothing was pushed. The diff below can be applied with `git apply`.' };
    }
    const branch = o.plan.branch;
    const allowed = o.plan.kind === 'pull' ? branch === o.plan.branch : branch.startsWith(o.branchPrefix) && branch.length > o.branchPrefix.length;
    if (!allowed)
        throw new Error(`refusing to push to ${branch}: only the pull request's branch or new ${o.branchPrefix}* branches are pushed`);
    // A token rarely may push workflow files, and a prompt-injected run must not rewrite CI: hold them back unless allowed.
    const held = o.allowWorkflowChanges ? [] : await o.repo.workflowChanges();
    const notes = [];
    if (held.length > 0) {
        notes.push(`Changes to workflow files were not pushed (allow-workflow-changes is off): ${held.map((f) => `\`${f}\``).join(', ')}. They are in the diff below.`);
    }
    if (o.plan.kind === 'new-branch')
        await o.repo.createBranch(branch);
    const message = o.redact(`${commitSubject(o.task)}\n\nRequested in ${o.requestUrl}`);
    const sha = await o.repo.commitAll(message, { committer: git_repo.BOT_IDENTITY, author: git_repo.BOT_IDENTITY, coAuthors: coAuthor(o.requester), exclude: held });
    if (!sha)
        return { ...base, note: [...notes, 'Nothing was committed.'].join(' ') };
    const commit = { sha, url: `${o.serverUrl}/${o.owner}/${o.name}/commit/${sha}` };
    try {
        await o.pushRepo.push(branch);
    }
    catch (error) {
        const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
        o.log(`push to ${branch} failed: ${why}`);
        return { ...base, branch, commit, note: [...notes, `The commit could not be pushed to \`${branch}\` (${o.redact(why ?? '')}). The diff is below.`].join(' ') };
    }
    const delivered = { ...base, branch, commit, pushed: true, ...(notes.length > 0 ? { note: notes.join(' ') } : {}) };
    if (o.plan.kind !== 'new-branch' || o.pullRequest === 'never')
        return delivered;
    const closes = o.plan.issueNumber !== null ? `\n\nCloses #${o.plan.issueNumber}` : '';
    const pr = await openPullRequest(o.gh, {
        owner: o.owner,
        repo: o.name,
        head: branch,
        base: o.plan.base,
        title: o.redact(commitSubject(o.task).replace(/^agent: /, '')),
        body: o.redact(`${o.summary}\n\nRequested in ${o.requestUrl}${closes}`),
        draft: o.pullRequest === 'draft',
    });
    return { ...delivered, pr };
}


/***/ }),

/***/ 5927:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BOT_IDENTITY: () => (/* binding */ BOT_IDENTITY),
/* harmony export */   Repo: () => (/* binding */ Repo),
/* harmony export */   slugify: () => (/* binding */ slugify)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8161);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6760);
/* harmony import */ var simple_git__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4724);




const BOT_IDENTITY = {
    name: 'github-actions[bot]',
    email: '41898282+github-actions[bot]@users.noreply.github.com',
};
const WORKFLOWS_DIR = '.github/workflows/';
/**
 * Applied to every git call: the work tree is written by the model (its Bash can plant hooks or
 * an fsmonitor command in .git), so nothing in the repository may run code when the action
 * itself runs git.
 */
const SAFE_CONFIG = ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'commit.gpgSign=false'];
/**
 * simple-git refuses these settings by default. They are set here by the action itself (hooks and
 * fsmonitor off above; GIT_CONFIG_COUNT from the caller for the push credentials), never from
 * model or user text, which the default checks keep guarding.
 */
const UNSAFE_ALLOWED = {
    allowUnsafeHooksPath: true,
    allowUnsafeFsMonitor: true,
    allowUnsafeConfigEnvCount: true,
};
/**
 * Inherited variables that would redirect git (another repository, index or config), start
 * programs (pager, editor, askpass) or that simple-git rejects outright. Only the caller's
 * explicit `env` may set GIT_* variables.
 */
const DROPPED_ENV = new Set(['PAGER', 'EDITOR', 'VISUAL', 'SSH_ASKPASS', 'PREFIX', 'EMAIL']);
function inheritedEnv() {
    const env = {};
    for (const [key, value] of Object.entries(process.env)) {
        if (value === undefined || DROPPED_ENV.has(key.toUpperCase()) || key.toUpperCase().startsWith('GIT_'))
            continue;
        env[key] = value;
    }
    return env;
}
/** Any non-zero exit is a failure, even a silent one (simple-git only fails when stderr has text). */
const strictErrors = (error, result) => {
    if (error !== undefined || result.exitCode === 0)
        return error;
    return Buffer.concat([...result.stdOut, ...result.stdErr, Buffer.from(`git exited with code ${result.exitCode}`)]);
};
/** Letters, digits and `._-/+#,=`: valid refs may hold `$(id)` or quotes, which a branch we push never needs. */
const BRANCH_CHARS = /^[\p{L}\p{N}._\-/+#,=]+$/u;
function nulList(output) {
    return output.split('\0').filter((entry) => entry.length > 0);
}
/** Newlines or angle brackets in a name would forge extra trailers or break the ident line. */
function cleanIdentity(who) {
    const clean = (s) => s.replace(/[\p{Cc}<>]/gu, ' ').replace(/\s+/g, ' ').trim();
    return { name: clean(who.name), email: clean(who.email) };
}
function withTrailers(message, author, coAuthors) {
    const seen = new Set([author.email.toLowerCase()]);
    const lines = [];
    for (const who of coAuthors.map(cleanIdentity)) {
        if (who.email === '' || seen.has(who.email.toLowerCase()))
            continue;
        seen.add(who.email.toLowerCase());
        lines.push(`Co-authored-by: ${who.name} <${who.email}>`);
    }
    const body = message.trim() || 'Changes by agent-action';
    return lines.length === 0 ? body : `${body}\n\n${lines.join('\n')}`;
}
function cutAtLine(text, maxChars) {
    if (text.length <= maxChars)
        return text;
    const lastNewline = text.lastIndexOf('\n', maxChars);
    const kept = text.slice(0, lastNewline > 0 ? lastNewline + 1 : maxChars);
    return `${kept}${kept.endsWith('\n') ? '' : '\n'}[… diff cut: ${text.length - kept.length} of ${text.length} characters not shown]\n`;
}
class Repo {
    dir;
    env;
    constructor(dir, env) {
        this.dir = dir;
        this.env = env;
    }
    static open(dir, opts = {}) {
        return new Repo((0,node_path__WEBPACK_IMPORTED_MODULE_2__.resolve)(dir), { ...inheritedEnv(), GIT_TERMINAL_PROMPT: '0', ...opts.env });
    }
    git(extraEnv = {}) {
        const env = { ...this.env, ...extraEnv };
        // Every GIT_* key here was put in by this class or its caller (inherited ones are dropped above).
        const allowEnvironment = Object.keys(env);
        return (0,simple_git__WEBPACK_IMPORTED_MODULE_3__/* .simpleGit */ .Lp)({ baseDir: this.dir, config: SAFE_CONFIG, unsafe: UNSAFE_ALLOWED, errors: strictErrors, allowEnvironment }).env(env);
    }
    raw(args, extraEnv) {
        return this.git(extraEnv).raw(args);
    }
    async isValidBranchName(name) {
        if (name.startsWith('-') || !BRANCH_CHARS.test(name))
            return false;
        try {
            // --branch also expands `@{-1}` and friends; only a name that comes back unchanged is literal.
            return (await this.raw(['check-ref-format', '--branch', name])).trim() === name;
        }
        catch {
            return false;
        }
    }
    async requireBranchName(name) {
        if (!(await this.isValidBranchName(name)))
            throw new Error(`Refusing invalid branch name: ${JSON.stringify(name)}`);
    }
    /** The checked-out branch, or '' when HEAD is detached. */
    async currentBranch() {
        try {
            return (await this.raw(['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim();
        }
        catch {
            return '';
        }
    }
    async headSha() {
        return (await this.raw(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
    }
    async checkoutPullHead(branch) {
        await this.requireBranchName(branch);
        const refspec = `+refs/heads/${branch}:refs/remotes/origin/${branch}`;
        await this.addFetchRefspec(refspec);
        await this.raw(['fetch', '--no-tags', '--depth=50', 'origin', refspec]);
        await this.raw(['checkout', '--quiet', '-B', branch, '--track', `refs/remotes/origin/${branch}`, '--']);
    }
    /** A pull request's head by number (`refs/pull/<n>/head`), e.g. from a fork; checked out detached. */
    async checkoutPullRef(pullNumber) {
        if (!Number.isSafeInteger(pullNumber) || pullNumber <= 0)
            throw new Error(`Refusing invalid pull request number: ${pullNumber}`);
        const ref = `refs/remotes/origin/pull/${pullNumber}/head`;
        await this.raw(['fetch', '--no-tags', '--depth=50', 'origin', `+refs/pull/${pullNumber}/head:${ref}`]);
        await this.raw(['checkout', '--quiet', '--detach', ref, '--']);
    }
    async remoteUrl() {
        return (await this.raw(['remote', 'get-url', 'origin'])).trim();
    }
    /** A single-branch clone fetches only the default branch; upstream tracking needs this one covered too. */
    async addFetchRefspec(refspec) {
        const current = await this.raw(['config', '--get-all', 'remote.origin.fetch']).catch(() => '');
        if (current.split('\n').includes(refspec))
            return;
        await this.raw(['config', '--add', 'remote.origin.fetch', refspec]);
    }
    async remoteBranches() {
        const out = await this.raw(['ls-remote', '--heads', 'origin']);
        const names = new Set();
        for (const line of out.split('\n')) {
            const ref = line.split('\t')[1];
            if (ref?.startsWith('refs/heads/'))
                names.add(ref.slice('refs/heads/'.length));
        }
        return names;
    }
    async localBranches() {
        const out = await this.raw(['for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads/']);
        return new Set(out.split('\n').filter((line) => line.length > 0));
    }
    async remoteBranchExists(branch) {
        await this.requireBranchName(branch);
        // A pattern argument would match by suffix (`x` finds `a/x`), so compare exact names.
        return (await this.remoteBranches()).has(branch);
    }
    async createBranch(name) {
        await this.requireBranchName(name);
        await this.raw(['switch', '--create', name]);
    }
    async uniqueBranchName(base) {
        await this.requireBranchName(base);
        const [remote, local] = await Promise.all([this.remoteBranches(), this.localBranches()]);
        const taken = (name) => remote.has(name) || local.has(name);
        let candidate = base;
        for (let n = 2; taken(candidate); n += 1)
            candidate = `${base}-${n}`;
        return candidate;
    }
    async changedFiles() {
        const [tracked, untracked] = await Promise.all([
            this.raw(['diff', '--name-only', '-z', '--no-renames', 'HEAD', '--']),
            this.raw(['ls-files', '--others', '--exclude-standard', '-z', '--']),
        ]);
        return [...new Set([...nulList(tracked), ...nulList(untracked)])].sort();
    }
    /**
     * Runs `fn` against a copy of the index with every work-tree change staged, so untracked files
     * show up in diffs while the real index stays as the caller left it.
     */
    async withWorkTreeIndex(fn) {
        const tmp = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdtemp)((0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)((0,node_os__WEBPACK_IMPORTED_MODULE_1__.tmpdir)(), 'agent-index-'));
        const env = { GIT_INDEX_FILE: (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(tmp, 'index') };
        try {
            const realIndex = (0,node_path__WEBPACK_IMPORTED_MODULE_2__.resolve)(this.dir, (await this.raw(['rev-parse', '--git-path', 'index'])).trim());
            // Starting from the real index keeps its stat cache, so unchanged files are not re-hashed.
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.copyFile)(realIndex, env.GIT_INDEX_FILE).catch(() => undefined);
            await this.raw(['add', '--all', '--', '.'], env);
            return await fn(env);
        }
        finally {
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm)(tmp, { recursive: true, force: true });
        }
    }
    async diff(opts = {}) {
        const text = await this.withWorkTreeIndex((env) => this.raw(['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', 'HEAD', '--'], env));
        return opts.maxChars === undefined ? text : cutAtLine(text, opts.maxChars);
    }
    async diffStat() {
        return this.withWorkTreeIndex((env) => this.raw(['diff', '--cached', '--stat', '--no-color', '--no-ext-diff', '--no-renames', 'HEAD', '--'], env));
    }
    async unstage(paths) {
        if (paths.length === 0)
            return;
        // Literal pathspecs: a file named `*` or `:(glob)x` must not widen what is left out.
        await this.raw(['--literal-pathspecs', 'reset', '--quiet', 'HEAD', '--', ...paths]);
    }
    async commitAll(message, opts) {
        await this.raw(['add', '--all', '--', '.']);
        await this.unstage(opts.exclude ?? []);
        const staged = await this.raw(['diff', '--cached', '--name-only', '-z', 'HEAD', '--']);
        if (nulList(staged).length === 0)
            return null;
        const committer = cleanIdentity(opts.committer);
        const author = cleanIdentity(opts.author ?? opts.committer);
        const env = {
            GIT_AUTHOR_NAME: author.name,
            GIT_AUTHOR_EMAIL: author.email,
            GIT_COMMITTER_NAME: committer.name,
            GIT_COMMITTER_EMAIL: committer.email,
        };
        const identityConfig = ['-c', `user.name=${committer.name}`, '-c', `user.email=${committer.email}`];
        const text = withTrailers(message, author, opts.coAuthors ?? []);
        await this.raw([...identityConfig, 'commit', '--quiet', '--no-verify', '--no-gpg-sign', '--cleanup=whitespace', '-m', text], env);
        return this.headSha();
    }
    async push(branch, opts = {}) {
        await this.requireBranchName(branch);
        const upstream = opts.setUpstream ? ['--set-upstream'] : [];
        await this.raw(['push', '--no-verify', ...upstream, 'origin', `HEAD:refs/heads/${branch}`]);
    }
    async workflowChanges() {
        return (await this.changedFiles()).filter((path) => path.startsWith(WORKFLOWS_DIR));
    }
}
/** 'Fix the failing test!' -> 'fix-the-failing-test'; cut at a word boundary when it can be. */
function slugify(text, max = 40) {
    const slug = text
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
    if (slug.length <= max)
        return slug;
    const head = slug.slice(0, max + 1);
    const boundary = head.lastIndexOf('-');
    return (boundary >= max / 2 ? head.slice(0, boundary) : slug.slice(0, max)).replace(/-+$/, '');
}


/***/ })

};
