export const id = 195;
export const ids = [195];
export const modules = {

/***/ 6600:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   n: () => (/* binding */ bashTool),
/* harmony export */   r: () => (/* binding */ createBashTool)
/* harmony export */ });
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1421);
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2857);
/* harmony import */ var _output_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8263);
/* harmony import */ var _registry_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4901);




const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
const schema = zod__WEBPACK_IMPORTED_MODULE_2__/* .object */ .Ikc({
    command: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().min(1).describe('The bash command to run.'),
    timeout: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig()
        .int()
        .min(1)
        .max(MAX_TIMEOUT_MS)
        .optional()
        .describe(`Milliseconds before the command is killed (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS}).`),
    description: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
        .optional()
        .describe('What the command does in 5-10 words, shown to the people following the run.'),
});
function killGroup(pid, signal) {
    if (pid === undefined)
        return;
    try {
        process.kill(-pid, signal);
    }
    catch {
        // ESRCH: every process of the group has already exited.
    }
}
/** Resolves when the main process exits, stopping the group first on timeout or cancellation. */
function waitForExit(child, spec) {
    return new Promise((resolve, reject) => {
        let forced;
        let killTimer;
        const stop = (why) => {
            if (forced)
                return;
            forced = why;
            killGroup(child.pid, 'SIGTERM');
            killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), spec.killGraceMs);
        };
        const timer = setTimeout(() => stop({ kind: 'timeout' }), spec.timeoutMs);
        const onAbort = () => stop({ kind: 'cancelled' });
        spec.signal.addEventListener('abort', onAbort, { once: true });
        const cleanup = () => {
            clearTimeout(timer);
            clearTimeout(killTimer);
            spec.signal.removeEventListener('abort', onAbort);
        };
        child.once('error', (error) => {
            cleanup();
            reject(new _registry_js__WEBPACK_IMPORTED_MODULE_1__/* .ToolError */ .v4(`Could not start the command: ${error.message}`));
        });
        child.once('exit', (code, signal) => {
            cleanup();
            resolve(forced ?? { kind: 'exit', code, signal });
        });
    });
}
/** Waits for the pipes to close, but at most ms: a background process may hold them forever. */
function settle(closed, ms) {
    let timer;
    const timeout = new Promise((resolve) => {
        timer = setTimeout(resolve, ms);
    });
    return Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
}
async function runProcess(spec) {
    const [file, ...args] = spec.argv;
    if (file === undefined)
        throw new _registry_js__WEBPACK_IMPORTED_MODULE_1__/* .ToolError */ .v4('The sandbox produced an empty command line.');
    // detached: the command leads its own process group, so one kill reaches everything it started.
    const child = (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.spawn)(file, args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const closed = new Promise((resolve) => child.once('close', () => resolve()));
    const collector = new _output_js__WEBPACK_IMPORTED_MODULE_3__/* .CappedCollector */ .x(spec.outputLimit);
    for (const stream of [child.stdout, child.stderr]) {
        stream?.setEncoding('utf8');
        stream?.on('data', (chunk) => collector.push(chunk));
    }
    try {
        const ending = await waitForExit(child, spec);
        await settle(closed, spec.settleMs);
        return { output: collector.text(), ending };
    }
    finally {
        // Reap whatever the command left running and let go of pipes it may still hold.
        killGroup(child.pid, 'SIGKILL');
        child.stdout?.destroy();
        child.stderr?.destroy();
    }
}
function describeEnding(output, ending, timeoutMs) {
    const body = output.length > 0 ? output.replace(/\n$/, '') : '(no output)';
    switch (ending.kind) {
        case 'exit':
            return ending.code !== null ? `${body}\nexit code ${ending.code}` : `${body}\nterminated by signal ${ending.signal}`;
        case 'timeout':
            throw new _registry_js__WEBPACK_IMPORTED_MODULE_1__/* .ToolError */ .v4(`${body}\nkilled after timeout of ${timeoutMs} ms. Give a larger timeout (max ${MAX_TIMEOUT_MS}), ` +
                'or run a faster or narrower command.');
        case 'cancelled':
            throw new _registry_js__WEBPACK_IMPORTED_MODULE_1__/* .ToolError */ .v4(`${body}\ncancelled`);
    }
}
/** The Bash tool; opts.wrap slots a sandbox around every command. */
function createBashTool(opts = {}) {
    const { wrap = (argv) => argv, settleMs = 150, killGraceMs = 300 } = opts;
    return (0,_registry_js__WEBPACK_IMPORTED_MODULE_1__/* .defineTool */ .uO)({
        name: 'Bash',
        description: 'Runs a bash command in the workspace root and returns its output (stdout and stderr together) and ' +
            'exit code. Each call starts a fresh shell: cd and variables do not carry over, so chain with && ' +
            'when needed. There is no terminal: stdin is closed and prompts, editors and pagers are disabled, so ' +
            'pass non-interactive flags (e.g. -y). Processes left in the background are stopped when the command ' +
            'returns. Long output keeps its start and end only. Prefer Read, Edit, Write, Glob and Grep for files.',
        schema,
        readOnly: false,
        async run(input, ctx) {
            if (ctx.signal.aborted)
                throw new _registry_js__WEBPACK_IMPORTED_MODULE_1__/* .ToolError */ .v4('Cancelled before the command started.');
            const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
            const { output, ending } = await runProcess({
                argv: wrap(['bash', '-c', input.command]),
                cwd: ctx.workspace.root,
                env: ctx.env,
                timeoutMs,
                signal: ctx.signal,
                outputLimit: ctx.outputLimit,
                settleMs,
                killGraceMs,
            });
            return describeEnding(output, ending, timeoutMs);
        },
    });
}
const bashTool = createBashTool();


/***/ }),

/***/ 2195:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ALL_TOOLS: () => (/* binding */ ALL_TOOLS),
  selectTools: () => (/* binding */ selectTools)
});

// EXTERNAL MODULE: ./.tmp/build/tools/bash.js
var bash = __webpack_require__(6600);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 11 modules
var schemas = __webpack_require__(2857);
// EXTERNAL MODULE: ./.tmp/build/tools/registry.js
var registry = __webpack_require__(4901);
;// CONCATENATED MODULE: ./.tmp/build/tools/edit.js




const SNIPPET_CONTEXT = 3;
const schema = schemas/* object */.Ikc({
    file_path: schemas/* string */.YjP()
        .min(1)
        .describe('The file to modify: an absolute path, or a path relative to the workspace root.'),
    old_string: schemas/* string */.YjP()
        .describe('The exact text to replace, including indentation and line breaks, without Read line-number prefixes. ' +
        'It must occur exactly once unless replace_all is true; include surrounding lines to make it unique.'),
    new_string: schemas/* string */.YjP().describe('The text to put in its place (must differ from old_string).'),
    replace_all: schemas/* boolean */.zMY()
        .optional()
        .default(false)
        .describe('Replace every occurrence of old_string instead of requiring exactly one (default false).'),
});
function countOccurrences(text, needle) {
    let count = 0;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
        count += 1;
    return count;
}
function lineAt(text, index) {
    return text.slice(0, index).split('\n').length;
}
/** Numbered lines around the replacement, so the model can check the result without a Read. */
function snippet(text, start, length) {
    const lines = text.split('\n');
    const first = Math.max(1, lineAt(text, start) - SNIPPET_CONTEXT);
    // A long replacement is shown by its start; the model wrote it and only needs to see it landed.
    const last = Math.min(lines.length, lineAt(text, start + length) + SNIPPET_CONTEXT, first + 40);
    return lines
        .slice(first - 1, last)
        .map((line, i) => `${String(first + i).padStart(6)}\t${line.replace(/\r$/, '')}`)
        .join('\n');
}
/** Line numbers where the first line of old_string appears ignoring indentation: a hint, not a match. */
function looseMatchLines(content, oldString) {
    const squash = (s) => s.trim().replace(/\s+/g, ' ');
    const firstLine = oldString.split('\n').map(squash).find((line) => line.length > 0);
    if (!firstLine)
        return [];
    const found = [];
    content.split('\n').forEach((line, i) => {
        if (squash(line) === firstLine && found.length < 5)
            found.push(i + 1);
    });
    return found;
}
function noMatchError(shown, content, oldString) {
    const lines = looseMatchLines(content, oldString);
    const hint = lines.length > 0
        ? ` A similar line differing only in whitespace is at line ${lines.join(', ')}: Read it and copy the text exactly (indentation, tabs, spaces).`
        : ' Read the file again and copy old_string exactly as it appears now.';
    return new registry/* ToolError */.v4(`old_string was not found in ${shown}.${hint}`);
}
async function readUtf8(abs, shown) {
    const stat = await external_node_fs_.promises.stat(abs).catch(() => undefined);
    if (stat && !stat.isFile() && !stat.isDirectory())
        throw new registry/* ToolError */.v4(`${shown} is not a regular file; Edit only edits files.`);
    const bytes = await external_node_fs_.promises.readFile(abs).catch((error) => {
        if (error.code === 'ENOENT')
            return undefined;
        if (error.code === 'EISDIR')
            throw new registry/* ToolError */.v4(`${shown} is a directory, not a file.`);
        throw error;
    });
    if (bytes === undefined)
        return undefined;
    const text = bytes.toString('utf8');
    // Writing back a decoded non-UTF-8 file would silently replace its bytes with U+FFFD.
    if (!Buffer.from(text, 'utf8').equals(bytes)) {
        throw new registry/* ToolError */.v4(`${shown} is not valid UTF-8 text; Edit would corrupt it. Use Bash (e.g. sed) instead.`);
    }
    return text;
}
function applyEdit(content, oldString, newString, replaceAll, shown) {
    let [from, to] = [oldString, newString];
    let count = countOccurrences(content, from);
    if (count === 0 && content.includes('\r\n') && from.includes('\n') && !from.includes('\r')) {
        // Read shows CRLF files without their CRs, so match the line endings the file really has.
        [from, to] = [from.replace(/\n/g, '\r\n'), to.replace(/\n/g, '\r\n')];
        count = countOccurrences(content, from);
    }
    if (count === 0)
        throw noMatchError(shown, content, oldString);
    if (count > 1 && !replaceAll) {
        throw new registry/* ToolError */.v4(`old_string occurs ${count} times in ${shown}. Add surrounding lines to old_string so it matches exactly once, ` +
            'or set replace_all to true to replace every occurrence.');
    }
    const at = content.indexOf(from);
    // split/join and slicing, not String.replace, so `$&` and friends in new_string stay literal.
    const next = replaceAll ? content.split(from).join(to) : content.slice(0, at) + to + content.slice(at + from.length);
    return { content: next, at, length: to.length, count: replaceAll ? count : 1 };
}
async function createFile(abs, content) {
    await external_node_fs_.promises.mkdir(external_node_path_.dirname(abs), { recursive: true });
    await external_node_fs_.promises.writeFile(abs, content, 'utf8');
}
const editTool = (0,registry/* defineTool */.uO)({
    name: 'Edit',
    description: 'Replaces exact text in a file. old_string must match the file character for character (indentation ' +
        'included, Read line-number prefixes excluded) and occur exactly once, unless replace_all is true. ' +
        'An empty old_string creates a file that does not exist yet. Read the file before editing it. ' +
        'The result shows the edited lines with their numbers.',
    schema,
    readOnly: false,
    async run(input, ctx) {
        if (input.old_string === input.new_string) {
            throw new registry/* ToolError */.v4('old_string and new_string are identical, so there is nothing to change.');
        }
        const abs = await ctx.workspace.resolve(input.file_path, 'write');
        const shown = ctx.workspace.relative(abs);
        const content = await readUtf8(abs, shown);
        if (content === undefined || (input.old_string === '' && content === '')) {
            if (input.old_string !== '') {
                throw new registry/* ToolError */.v4(`${shown} does not exist. Use Write to create it, or Glob to find the file you meant.`);
            }
            await createFile(abs, input.new_string);
            return `${content === undefined ? 'Created' : 'Wrote'} ${shown}.`;
        }
        if (input.old_string === '') {
            throw new registry/* ToolError */.v4(`old_string is empty but ${shown} already has content. Give the exact text to replace, or use Write to replace the whole file.`);
        }
        const change = applyEdit(content, input.old_string, input.new_string, input.replace_all, shown);
        await external_node_fs_.promises.writeFile(abs, change.content, 'utf8');
        const what = change.count === 1 ? 'Replaced 1 occurrence' : `Replaced ${change.count} occurrences (the first shown)`;
        return `Edited ${shown}. ${what}:\n${snippet(change.content, change.at, change.length)}`;
    },
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./node_modules/picomatch/index.js
var picomatch = __webpack_require__(4006);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
;// CONCATENATED MODULE: ./.tmp/build/tools/files.js





function numericCode(error) {
    return typeof error.code === 'number' ? error.code : -1;
}
/** Runs git with argv (never a shell); a non-zero exit is a result, not an exception. */
function runGit(args, options) {
    const { cwd, env, signal, maxBuffer = 64 * 1024 * 1024 } = options;
    return new Promise((resolve, reject) => {
        (0,external_node_child_process_.execFile)('git', args, { cwd, env, signal, maxBuffer, encoding: 'utf8' }, (error, stdout, stderr) => {
            if (!error)
                return resolve({ code: 0, stdout, stderr, truncated: false });
            if (error.name === 'AbortError')
                return reject(new registry/* ToolError */.v4('Cancelled.'));
            const truncated = 'code' in error && error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
            resolve({ code: truncated ? 0 : numericCode(error), stdout, stderr, truncated });
        });
    });
}
/**
 * True when git should list or search dir: it is in a work tree git is willing to use, and not
 * itself ignored (asking for node_modules/x by name means its files are wanted).
 */
async function searchWithGit(dir, env, signal) {
    // Both questions at once: outside a work tree check-ignore just fails, and its answer is unused.
    const [inside, ignored] = await Promise.all([
        runGit(['rev-parse', '--is-inside-work-tree'], { cwd: dir, env, signal }),
        runGit(['check-ignore', '-q', '.'], { cwd: dir, env, signal }),
    ]);
    if (inside.code !== 0 || inside.stdout.trim() !== 'true')
        return false;
    return ignored.code !== 0;
}
function splitNul(text) {
    return text.split('\0').filter((entry) => entry.length > 0);
}
async function gitFiles(base, env, signal, pathspecs, keepDeleted) {
    const options = { cwd: base, env, signal };
    const only = pathspecs.length > 0 ? ['--', ...pathspecs] : [];
    const [listed, deleted] = await Promise.all([
        runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard', ...only], options),
        // Deleted but unstaged files are still in the index; `--deleted` finds them with a stat per
        // indexed file, which a caller that checks only what it shows can skip.
        keepDeleted ? Promise.resolve({ code: 0, stdout: '', stderr: '', truncated: false }) : runGit(['ls-files', '-z', '--deleted', ...only], options),
    ]);
    if (listed.code !== 0)
        throw new registry/* ToolError */.v4(`git ls-files failed: ${listed.stderr.trim()}`);
    const files = splitNul(listed.stdout);
    if (keepDeleted)
        return files;
    const gone = new Set(splitNul(deleted.stdout));
    return [...new Set(files)].filter((file) => !gone.has(file));
}
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);
async function walkFiles(base) {
    const files = [];
    async function visit(dir, prefix) {
        const entries = await external_node_fs_.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
        await Promise.all(entries.map(async (entry) => {
            const rel = prefix + entry.name;
            // Sockets, FIFOs and devices are left out: reading one would block or never end.
            if (entry.isFile() || entry.isSymbolicLink())
                files.push(rel);
            else if (!entry.isDirectory())
                return;
            else if (!SKIPPED_DIRECTORIES.has(entry.name))
                await visit(external_node_path_.join(dir, entry.name), `${rel}/`);
        }));
    }
    await visit(base, '');
    return files;
}
/**
 * Files under base, relative to it with '/' separators: what git would not ignore inside a work
 * tree, otherwise every file except those under .git and node_modules. Never stats a file.
 */
async function listFiles(base, env, signal, options = {}) {
    return (await listCandidates(base, env, signal, options)).files;
}
/**
 * As listFiles, and says whether git applied the pathspecs (then every file matches them); with
 * keepDeleted, files deleted but still in the index stay in and a name may repeat (an unmerged
 * file): the caller checks what it shows.
 */
async function listCandidates(base, env, signal, options = {}) {
    // One git call in the common case: outside a work tree ls-files fails, and only an empty
    // answer raises the question of whether base itself is ignored (then its files are wanted).
    const listed = await gitFiles(base, env, signal, options.pathspecs ?? [], options.keepDeleted ?? false).catch(() => null);
    if (listed && (listed.length > 0 || (await searchWithGit(base, env, signal)))) {
        return { files: listed, matched: (options.pathspecs ?? []).length > 0 };
    }
    return { files: await walkFiles(base), matched: false };
}
/** Code-unit order: the same on every machine, unlike localeCompare. */
function comparePaths(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
/**
 * Matcher for a file-filter glob: one without '/' matches the base name at any depth, as the
 * glob option of ripgrep does.
 */
function fileFilter(glob) {
    return picomatch(glob, { dot: true, basename: !glob.includes('/') });
}
/**
 * The bytes of a regular file of at most maxBytes, else undefined. lstat, not stat: a symlink found
 * while searching may point outside the workspace, and only resolve() may decide about that.
 */
async function readRegularFile(abs, maxBytes) {
    const stat = await external_node_fs_.promises.lstat(abs).catch(() => undefined);
    if (!stat?.isFile() || stat.size > maxBytes)
        return undefined;
    return external_node_fs_.promises.readFile(abs).catch(() => undefined);
}
/** Checks that a search base is a directory, with a message pointing at the right tool otherwise. */
async function requireDirectory(abs, shown) {
    const stat = await external_node_fs_.promises.stat(abs).catch(() => undefined);
    if (!stat)
        throw new registry/* ToolError */.v4(`${shown} does not exist. Give a directory inside the workspace.`);
    if (!stat.isDirectory())
        throw new registry/* ToolError */.v4(`${shown} is a file, not a directory. Use Read to see a file.`);
}

;// CONCATENATED MODULE: ./.tmp/build/tools/grep-git.js



/** "{a,b}c" -> ["ac", "bc"]: git pathspecs have no braces. */
function expandBraces(glob) {
    const open = glob.indexOf('{');
    if (open === -1)
        return [glob];
    const parts = [];
    let depth = 0;
    let start = open + 1;
    for (let i = open; i < glob.length; i++) {
        const ch = glob[i];
        if (ch === '{')
            depth += 1;
        else if (ch === ',' && depth === 1) {
            parts.push(glob.slice(start, i));
            start = i + 1;
        }
        else if (ch === '}' && --depth === 0) {
            parts.push(glob.slice(start, i));
            const [before, after] = [glob.slice(0, open), glob.slice(i + 1)];
            return parts.flatMap((part) => expandBraces(before + part + after));
        }
    }
    return [glob];
}
function pathspecs(glob) {
    if (!glob)
        return [];
    // A glob without '/' filters by file name at any depth, as ripgrep's --glob does.
    return expandBraces(glob).map((g) => `:(glob)${g.includes('/') ? g : `**/${g}`}`);
}
function gitArgs(query, engine) {
    const modeFlag = { files_with_matches: '-l', count: '-c', content: '-n' }[query.mode];
    return [
        ...['grep', '--untracked', '--exclude-standard', '-I', '--no-color', '-z', engine, modeFlag],
        ...(query.ignoreCase ? ['-i'] : []),
        ...['-e', query.pattern, '--', ...pathspecs(query.glob)],
    ];
}
/** Incremental parser of `git grep -z` output, which arrives sorted by path. */
class GrepOutputParser {
    mode;
    pending = '';
    last;
    files = [];
    /** Matching lines in content mode, files otherwise. */
    entries = 0;
    constructor(mode) {
        this.mode = mode;
    }
    push(chunk) {
        const text = this.pending + chunk;
        const end = text.lastIndexOf(this.mode === 'files_with_matches' ? '\0' : '\n') + 1;
        this.pending = text.slice(end);
        const complete = text.slice(0, end);
        if (this.mode === 'files_with_matches') {
            for (const name of complete.split('\0'))
                if (name)
                    this.hits(name).count = 1;
        }
        else if (this.mode === 'count') {
            for (const m of complete.matchAll(/([^\0]+)\0(\d+)\n/g))
                this.hits(m[1] ?? '').count = Number(m[2]);
        }
        else {
            for (const m of complete.matchAll(/([^\0]+)\0(\d+)\0([^\n]*)\n/g)) {
                const hits = this.hits(m[1] ?? '');
                hits.count += 1;
                hits.matches.push({ line: Number(m[2]), text: m[3] ?? '' });
                this.entries += 1;
            }
        }
    }
    hits(name) {
        if (this.last?.name === name)
            return this.last;
        this.last = { name, count: 0, matches: [] };
        this.files.push(this.last);
        if (this.mode !== 'content')
            this.entries += 1;
        return this.last;
    }
}
/** Streams git grep into the parser and stops git once the answer is full, however big the repo. */
function runGitGrep(args, options, parser, maxEntries) {
    return new Promise((resolve, reject) => {
        const { cwd, env, signal } = options;
        const child = (0,external_node_child_process_.spawn)('git', args, { cwd, env, signal, stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        let stopped = false;
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (chunk) => {
            if (stderr.length < 10_000)
                stderr += chunk;
        });
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (chunk) => {
            if (stopped)
                return;
            parser.push(chunk);
            if (parser.entries <= maxEntries)
                return;
            stopped = true;
            child.kill('SIGKILL');
        });
        child.once('error', (error) => reject(error.name === 'AbortError' ? new registry/* ToolError */.v4('Cancelled.') : error));
        child.once('close', (code) => resolve({ code: stopped ? 0 : (code ?? -1), stderr, stopped }));
    });
}
async function runWith(query, engine) {
    const parser = new GrepOutputParser(query.mode);
    const options = { cwd: query.base, env: query.env, signal: query.signal };
    const run = await runGitGrep(gitArgs(query, engine), options, parser, query.maxEntries);
    return { run, files: parser.files };
}
/** git grep over tracked and untracked files, skipping ignored and binary ones. */
async function gitSearch(query) {
    let { run, files } = await runWith(query, '-P');
    if (run.code !== 0 && /USE_LIBPCRE|Perl-compatible/i.test(run.stderr)) {
        // git built without PCRE: extended regexes cover most of what the model writes.
        ({ run, files } = await runWith(query, '-E'));
    }
    if (run.code === 1)
        return { base: query.base, files: [], truncated: false };
    if (run.code !== 0) {
        throw new registry/* ToolError */.v4(`git grep failed: ${run.stderr.trim()}. Check the pattern (PCRE syntax) and glob.`);
    }
    // Already in git's path order; sorting again keeps the promise even if that ever changes.
    files.sort((a, b) => comparePaths(a.name, b.name));
    return { base: query.base, files, truncated: run.stopped };
}

;// CONCATENATED MODULE: ./.tmp/build/tools/glob.js







const MAX_RESULTS = 100;
const glob_schema = schemas/* object */.Ikc({
    pattern: schemas/* string */.YjP()
        .min(1)
        .describe('The glob to match file paths against, relative to path, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
    path: schemas/* string */.YjP()
        .optional()
        .describe('The directory to search in (default: the workspace root). Omit it to search the whole workspace.'),
});
/** The pattern relative to base: models often pass absolute patterns that repeat the directory. */
function relativePattern(pattern, base) {
    if (!external_node_path_.isAbsolute(pattern))
        return pattern.replace(/^(\.\/)+/, '');
    if (pattern.startsWith(`${base}/`))
        return pattern.slice(base.length + 1);
    throw new registry/* ToolError */.v4(`The pattern ${pattern} is an absolute path outside the search directory ${base}. Give a pattern relative to path.`);
}
async function exists(file) {
    return (0,promises_.lstat)(file).then(() => true, () => false);
}
function noMatches(pattern, shown) {
    const hint = pattern.includes('/') ? '' : ` "*" does not cross directories: use "**/${pattern}" to search subdirectories too.`;
    return `No files match "${pattern}" under ${shown}.${hint}`;
}
const globTool = (0,registry/* defineTool */.uO)({
    name: 'Glob',
    description: 'Finds files by name with a glob pattern ("**/*.ts", "src/**/test_*.py", "*.{json,yml}"). "*" matches ' +
        'within one directory, "**/" any number of directories. Files ignored by .gitignore are skipped. ' +
        `Returns paths relative to the workspace root, sorted, at most ${MAX_RESULTS}. Use Grep to search file contents.`,
    schema: glob_schema,
    readOnly: true,
    async run(input, ctx) {
        const base = await ctx.workspace.resolve(input.path ?? '.', 'read');
        const shown = ctx.workspace.relative(base);
        await requireDirectory(base, shown);
        const pattern = relativePattern(input.pattern, base);
        const isMatch = picomatch(pattern, { dot: true });
        // git narrows the list with glob pathspecs (in C, on 100,000 files that is most of the work);
        // picomatch then decides exactly, so both walks of the tree agree.
        // Extglobs (`+(a|b)`, `!(x)`) have no pathspec form: those list everything and filter here.
        const specs = /[!@+*?]\(/.test(pattern) ? [] : expandBraces(pattern).map((p) => `:(glob)${p}`);
        const prefix = shown === '.' ? '' : `${shown}/`;
        const found = await listCandidates(base, ctx.env, ctx.signal, { pathspecs: specs, keepDeleted: true });
        // git's glob pathspecs follow the same rules as picomatch here (**, *, ?, [], braces expanded).
        const matching = found.matched ? found.files : found.files.filter((file) => isMatch(file));
        const candidates = matching.sort(comparePaths).filter((file, i, all) => i === 0 || all[i - 1] !== file);
        // Files deleted but still in git's index are dropped here, with a stat of only what is shown.
        const shownFiles = [];
        let gone = 0;
        for (const file of candidates) {
            if (shownFiles.length >= MAX_RESULTS)
                break;
            if (await exists(external_node_path_.join(base, file)))
                shownFiles.push(prefix + file);
            else
                gone++;
        }
        if (shownFiles.length === 0)
            return noMatches(pattern, shown);
        const listed = shownFiles.join('\n');
        const more = candidates.length - shownFiles.length - gone;
        if (more <= 0)
            return listed;
        return `${listed}\n[${more} more files not shown. Narrow the pattern or give a path to see them.]`;
    },
});

// EXTERNAL MODULE: ./.tmp/build/tools/workspace.js
var workspace = __webpack_require__(4317);
;// CONCATENATED MODULE: ./.tmp/build/tools/grep-search.js





/** Bigger files are skipped by the fallback search: they are data, not code. */
const MAX_SEARCHED_BYTES = 20 * 1024 * 1024;
function compile(pattern, ignoreCase) {
    try {
        return new RegExp(pattern, ignoreCase ? 'i' : '');
    }
    catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new registry/* ToolError */.v4(`Invalid regular expression: ${reason}. Fix the pattern and search again.`);
    }
}
/** Matches in one text file, or undefined for a binary or unreadable one. */
async function searchFile(base, name, regex, mode) {
    const bytes = await readRegularFile(external_node_path_.join(base, name), MAX_SEARCHED_BYTES);
    if (!bytes || bytes.subarray(0, 8192).includes(0))
        return undefined;
    const hits = { name, count: 0, matches: [] };
    const lines = bytes.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '')
        lines.pop();
    for (const [i, raw] of lines.entries()) {
        const text = raw.replace(/\r$/, '');
        if (!regex.test(text))
            continue;
        hits.count += 1;
        if (mode === 'files_with_matches')
            break;
        if (mode === 'content')
            hits.matches.push({ line: i + 1, text });
    }
    return hits.count > 0 ? hits : undefined;
}
/** For directories outside git, and single files (searched even when git would ignore them). */
async function walkSearch(query) {
    const regex = compile(query.pattern, query.ignoreCase);
    const keep = query.glob ? fileFilter(query.glob) : () => true;
    const names = query.file ? [query.file] : (await listFiles(query.base, query.env, query.signal)).filter((f) => keep(f));
    const files = [];
    let entries = 0;
    for (const name of names.sort(comparePaths)) {
        if (query.signal.aborted)
            throw new registry/* ToolError */.v4('Cancelled.');
        const hits = await searchFile(query.base, name, regex, query.mode);
        if (!hits)
            continue;
        files.push(hits);
        entries += query.mode === 'content' ? hits.count : 1;
        if (entries > query.maxEntries)
            return { base: query.base, files, truncated: true };
    }
    return { base: query.base, files, truncated: false };
}
/** Searches with git grep inside a work tree (fast, .gitignore-aware), else by walking files. */
async function grepSearch(query) {
    const useGit = !query.file && (await searchWithGit(query.base, query.env, query.signal));
    const result = useGit ? await gitSearch(query) : await walkSearch(query);
    // Read refuses credential files; a search must not quote them either.
    const files = result.files.filter((hits) => !(0,workspace/* isCredentialFileName */.h4)(external_node_path_.posix.basename(hits.name)));
    return { ...result, files };
}

// EXTERNAL MODULE: ./.tmp/build/tools/output.js
var output = __webpack_require__(8263);
;// CONCATENATED MODULE: ./.tmp/build/tools/grep.js







const DEFAULT_HEAD_LIMIT = 250;
const MAX_SHOWN_LINE = 500;
/** Context lines come from reading the file; past this size only the matching lines are shown. */
const MAX_CONTEXT_FILE_BYTES = 20 * 1024 * 1024;
const grep_schema = schemas/* object */.Ikc({
    pattern: schemas/* string */.YjP()
        .min(1)
        .describe('The regular expression to search file contents for (PCRE syntax, as in ripgrep: escape literal "(", "{", ".").'),
    path: schemas/* string */.YjP().optional().describe('The file or directory to search in (default: the workspace root).'),
    glob: schemas/* string */.YjP()
        .optional()
        .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{js,jsx}". Without "/" it matches file names at any depth.'),
    output_mode: schemas/* enum */.k5n(['content', 'files_with_matches', 'count'])
        .optional()
        .default('files_with_matches')
        .describe('"files_with_matches" (default) lists matching files, "content" shows matching lines, "count" counts matches per file.'),
    '-i': schemas/* boolean */.zMY().optional().describe('Search case-insensitively.'),
    '-n': schemas/* boolean */.zMY().optional().describe('Show line numbers in content mode (default true).'),
    '-C': schemas/* number */.aig().int().min(0).max(50).optional().describe('Lines of context to show before and after each match (content mode only).'),
    head_limit: schemas/* number */.aig()
        .int()
        .min(1)
        .optional()
        .describe(`Show at most this many lines or files (default ${DEFAULT_HEAD_LIMIT}).`),
});
function shorten(raw) {
    const text = raw.replace(/\r$/, '');
    if (text.length <= MAX_SHOWN_LINE)
        return text;
    return `${text.slice(0, MAX_SHOWN_LINE)} [... ${text.length - MAX_SHOWN_LINE} more characters]`;
}
/** Line ranges to print: each match widened by context, overlapping ranges merged. */
function hunks(matchLines, context, lineCount) {
    const ranges = [];
    for (const line of matchLines) {
        const [from, to] = [Math.max(1, line - context), Math.min(lineCount, line + context)];
        const last = ranges[ranges.length - 1];
        if (last && from <= last[1] + 1)
            last[1] = Math.max(last[1], to);
        else
            ranges.push([from, to]);
    }
    return ranges;
}
async function fileContent(hits, abs, shown, input) {
    const numbered = input['-n'] ?? true;
    // ripgrep's convention: ':' after a matching line's prefix, '-' after a context line's.
    const format = (line, text, isMatch) => {
        const sep = isMatch ? ':' : '-';
        return numbered ? `${shown}${sep}${line}${sep}${shorten(text)}` : `${shown}${sep}${shorten(text)}`;
    };
    const context = input['-C'] ?? 0;
    const bytes = context > 0 ? await readRegularFile(abs, MAX_CONTEXT_FILE_BYTES) : undefined;
    if (!bytes)
        return hits.matches.map((m) => format(m.line, m.text, true));
    const lines = bytes.toString('utf8').split('\n').map((l) => l.replace(/\r$/, ''));
    const matchSet = new Set(hits.matches.map((m) => m.line));
    const out = [];
    for (const [from, to] of hunks([...matchSet], context, lines.length)) {
        if (out.length > 0)
            out.push('--');
        for (let n = from; n <= to; n++)
            out.push(format(n, lines[n - 1] ?? '', matchSet.has(n)));
    }
    return out;
}
async function renderContent(result, input, workspace, limit) {
    const lines = [];
    for (const [i, hits] of result.files.entries()) {
        if (lines.length > limit)
            return { lines, more: true };
        if (i > 0 && (input['-C'] ?? 0) > 0)
            lines.push('--');
        const abs = external_node_path_.join(result.base, hits.name);
        lines.push(...(await fileContent(hits, abs, workspace.relative(abs), input)));
    }
    return { lines, more: result.truncated };
}
function renderList(result, input, workspace, limit) {
    const lines = result.files.slice(0, limit).map((hits) => {
        const shown = workspace.relative(external_node_path_.join(result.base, hits.name));
        return input.output_mode === 'count' ? `${shown}:${hits.count}` : shown;
    });
    return { lines, more: result.truncated || result.files.length > limit };
}
function finish(rendered, limit) {
    const shown = rendered.lines.slice(0, limit).join('\n');
    if (!rendered.more && rendered.lines.length <= limit)
        return shown;
    return `${shown}\n[Capped at ${limit} lines; there are more results. Narrow the pattern, path or glob, or raise head_limit.]`;
}
async function searchTarget(input, workspace) {
    const abs = await workspace.resolve(input.path ?? '.', 'read');
    const stat = await external_node_fs_.promises.stat(abs).catch(() => undefined);
    if (!stat)
        throw new registry/* ToolError */.v4(`${workspace.relative(abs)} does not exist. Give a file or directory inside the workspace.`);
    return stat.isDirectory() ? { base: abs } : { base: external_node_path_.dirname(abs), file: external_node_path_.basename(abs) };
}
const grepTool = (0,registry/* defineTool */.uO)({
    name: 'Grep',
    description: 'Searches file contents with a regular expression (PCRE, like ripgrep). Files ignored by .gitignore and ' +
        'binary files are skipped. output_mode "files_with_matches" (default) lists files, "content" shows ' +
        '"path:line:text" (with -C for context), "count" shows "path:count". Filter files with glob. Paths are ' +
        `relative to the workspace root; results are sorted and capped at head_limit (default ${DEFAULT_HEAD_LIMIT}). ` +
        'Use this instead of grep or rg in Bash.',
    schema: grep_schema,
    readOnly: true,
    async run(input, ctx) {
        const { base, file } = await searchTarget(input, ctx.workspace);
        const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
        const result = await grepSearch({
            pattern: input.pattern,
            ignoreCase: input['-i'] ?? false,
            mode: input.output_mode,
            base,
            file,
            glob: input.glob,
            maxEntries: limit,
            env: ctx.env,
            signal: ctx.signal,
        });
        if (result.files.length === 0) {
            const shown = ctx.workspace.relative(file ? external_node_path_.join(base, file) : base);
            const where = shown === '.' ? 'the workspace' : shown;
            return `No matches for ${JSON.stringify(input.pattern)} in ${where}${input.glob ? ` (files matching ${input.glob})` : ''}.`;
        }
        const rendered = input.output_mode === 'content'
            ? await renderContent(result, input, ctx.workspace, limit)
            : renderList(result, input, ctx.workspace, limit);
        return (0,output/* capText */.y)(finish(rendered, limit), ctx.outputLimit);
    },
});

;// CONCATENATED MODULE: ./.tmp/build/tools/read.js




const DEFAULT_LIMIT = 2000;
const MAX_LINE_LENGTH = 2000;
const SNIFF_BYTES = 8192;
/** Extensions whose content is never useful as text, refused before a byte is read. */
const BINARY_EXTENSIONS = new Set(('png jpg jpeg gif bmp ico webp tiff psd pdf zip gz tgz bz2 xz zst 7z rar tar jar war ear class ' +
    'exe dll so dylib o a lib obj bin dat wasm pyc pyo mp3 mp4 m4a mov avi mkv webm wav ogg flac ' +
    'woff woff2 ttf otf eot sqlite sqlite3 db node iso dmg deb rpm')
    .split(' ')
    .map((ext) => `.${ext}`));
const read_schema = schemas/* object */.Ikc({
    file_path: schemas/* string */.YjP()
        .min(1)
        .describe('The file to read: an absolute path, or a path relative to the workspace root.'),
    offset: schemas/* number */.aig()
        .int()
        .min(0)
        .optional()
        .describe('The line number to start reading from (1 is the first line). Only needed for files too long to read at once.'),
    limit: schemas/* number */.aig()
        .int()
        .min(1)
        .optional()
        .describe(`The number of lines to read (default ${DEFAULT_LIMIT}). Only needed for files too long to read at once.`),
});
function formatLine(line) {
    const marker = line.cut > 0 ? ` [... ${line.cut} more characters on this line]` : '';
    return `${String(line.number).padStart(6)}\t${line.text}${marker}`;
}
/** Streams the file, holding at most MAX_LINE_LENGTH characters of any line not yet shown. */
async function scanLines(abs, start, count, budget) {
    const scan = { lines: [] };
    let number = 1;
    let text = '';
    let length = 0;
    let used = 0;
    const finish = () => {
        if (number >= start) {
            // A CR is only stripped when the whole line is held; a cut line ends in the cut part anyway.
            const whole = text.length === length && text.endsWith('\r');
            const full = whole ? length - 1 : length;
            const shown = text.slice(0, Math.min(full, MAX_LINE_LENGTH));
            const line = { number, text: shown, cut: Math.max(0, full - MAX_LINE_LENGTH) };
            const size = formatLine(line).length + 1;
            if (used + size > budget && scan.lines.length > 0)
                scan.stopped = 'budget';
            else
                scan.lines.push(line);
            used += size;
        }
        number += 1;
        text = '';
        length = 0;
    };
    const stream = (0,external_node_fs_.createReadStream)(abs, { encoding: 'utf8', highWaterMark: 64 * 1024 });
    for await (const chunk of stream) {
        for (let from = 0; from <= chunk.length && !scan.stopped;) {
            const newline = chunk.indexOf('\n', from);
            const end = newline === -1 ? chunk.length : newline;
            if (end === from && newline === -1)
                break;
            if (number >= start && scan.lines.length >= count)
                scan.stopped = 'limit';
            else {
                if (number >= start && text.length <= MAX_LINE_LENGTH)
                    text += chunk.slice(from, Math.min(end, from + MAX_LINE_LENGTH + 1));
                length += end - from;
                if (newline === -1)
                    break;
                finish();
            }
            from = end + 1;
        }
        if (scan.stopped)
            break;
    }
    if (!scan.stopped && length > 0)
        finish();
    if (!scan.stopped)
        scan.totalLines = number - 1;
    return scan;
}
async function refuseNonText(abs, shown) {
    const stat = await external_node_fs_.promises.stat(abs).catch(() => undefined);
    if (!stat)
        throw new registry/* ToolError */.v4(`${shown} does not exist. Use Glob to find the file you mean.`);
    if (stat.isDirectory()) {
        throw new registry/* ToolError */.v4(`${shown} is a directory. Use Glob (e.g. pattern "${shown}/*") or Bash ls to list it.`);
    }
    if (!stat.isFile())
        throw new registry/* ToolError */.v4(`${shown} is not a regular file (a device, socket or pipe); Read only reads files.`);
    const ext = external_node_path_.extname(abs).toLowerCase();
    const hint = 'Read shows text files only; use Bash (e.g. `file`, `xxd | head`) to inspect it.';
    if (BINARY_EXTENSIONS.has(ext))
        throw new registry/* ToolError */.v4(`${shown} is a binary file (${ext}). ${hint}`);
    const handle = await external_node_fs_.promises.open(abs, 'r');
    try {
        const buffer = Buffer.alloc(SNIFF_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
        if (buffer.subarray(0, bytesRead).includes(0))
            throw new registry/* ToolError */.v4(`${shown} looks binary (it contains NUL bytes). ${hint}`);
    }
    finally {
        await handle.close();
    }
}
function footer(scan, start) {
    const last = scan.lines[scan.lines.length - 1];
    if (!scan.stopped || !last)
        return '';
    const why = scan.stopped === 'budget' ? 'Output limit reached' : `Showing lines ${start}-${last.number}`;
    return `\n\n[${why}; the file has more lines. Call Read with offset ${last.number + 1} to continue.]`;
}
const readTool = (0,registry/* defineTool */.uO)({
    name: 'Read',
    description: 'Reads a text file from the workspace. Lines come numbered like `cat -n` (line number, tab, text); ' +
        'the numbers are not part of the file, so leave them out of Edit strings. Reads up to ' +
        `${DEFAULT_LIMIT} lines from the start by default; use offset and limit for longer files. ` +
        `Lines longer than ${MAX_LINE_LENGTH} characters are cut. Binary files and directories are refused ` +
        '(use Glob to list a directory). Read a file before editing it.',
    schema: read_schema,
    readOnly: true,
    async run(input, ctx) {
        const abs = await ctx.workspace.resolve(input.file_path, 'read');
        const shown = ctx.workspace.relative(abs);
        await refuseNonText(abs, shown);
        const start = Math.max(1, input.offset ?? 1);
        const scan = await scanLines(abs, start, input.limit ?? DEFAULT_LIMIT, ctx.outputLimit);
        if (scan.lines.length === 0) {
            if (scan.totalLines === 0)
                return `${shown} exists but is empty.`;
            return `${shown} has ${scan.totalLines ?? 'fewer'} lines; offset ${start} is past the end. Use a smaller offset.`;
        }
        return scan.lines.map(formatLine).join('\n') + footer(scan, start);
    },
});

;// CONCATENATED MODULE: ./.tmp/build/tools/todo-write.js


const todo_write_schema = schemas/* object */.Ikc({
    todos: schemas/* array */.YOg(registry/* TodoSchema */.eX).describe('The whole updated checklist; it replaces the previous one.'),
});
const MARKS = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };
/** The checklist as the model will see it echoed back. */
function renderTodos(todos) {
    if (todos.length === 0)
        return '(empty checklist)';
    return todos
        .map((todo) => {
        const label = todo.status === 'in_progress' && todo.activeForm ? todo.activeForm : todo.content;
        return `${MARKS[todo.status]} ${label}`;
    })
        .join('\n');
}
function reminder(todos) {
    const active = todos.filter((todo) => todo.status === 'in_progress').length;
    const open = todos.some((todo) => todo.status !== 'completed');
    if (!open)
        return 'All items are completed.';
    if (active === 1)
        return 'Keep exactly one item in_progress while working, and mark it completed as soon as it is done.';
    return `${active} items are in_progress; keep exactly one in_progress while working (mark the one you are doing now).`;
}
const todoWriteTool = (0,registry/* defineTool */.uO)({
    name: 'TodoWrite',
    description: 'Creates or updates the task checklist shown live to the people following the run. Use it for work ' +
        'with several steps: send the whole list each time, with exactly one item in_progress while working ' +
        '(activeForm is its present-tense label, e.g. "Running the tests"), and mark items completed as soon ' +
        'as they are done.',
    schema: todo_write_schema,
    // No file effects, but the list must follow the order of the calls that change it.
    readOnly: false,
    async run(input, ctx) {
        ctx.onTodos?.(input.todos);
        return `Checklist updated:\n${renderTodos(input.todos)}\n\n${reminder(input.todos)}`;
    },
});

;// CONCATENATED MODULE: ./.tmp/build/tools/write.js




const write_schema = schemas/* object */.Ikc({
    file_path: schemas/* string */.YjP()
        .min(1)
        .describe('The file to write: an absolute path, or a path relative to the workspace root.'),
    content: schemas/* string */.YjP().describe('The complete new content of the file.'),
});
/** Lines as an editor counts them: a final newline ends the last line rather than starting one. */
function countLines(text) {
    if (text.length === 0)
        return 0;
    const newlines = text.split('\n').length - 1;
    return text.endsWith('\n') ? newlines : newlines + 1;
}
const writeTool = (0,registry/* defineTool */.uO)({
    name: 'Write',
    description: 'Writes a file in the workspace, replacing it entirely if it exists and creating missing parent ' +
        'directories. Prefer Edit for changing part of an existing file; use Write for new files or full ' +
        'rewrites. Read an existing file before overwriting it.',
    schema: write_schema,
    readOnly: false,
    async run(input, ctx) {
        const abs = await ctx.workspace.resolve(input.file_path, 'write');
        const shown = ctx.workspace.relative(abs);
        const existing = await external_node_fs_.promises.stat(abs).catch(() => undefined);
        if (existing?.isDirectory()) {
            throw new registry/* ToolError */.v4(`${shown} is a directory. Give the path of a file inside it.`);
        }
        if (existing && !existing.isFile())
            throw new registry/* ToolError */.v4(`${shown} is not a regular file; Write only writes files.`);
        await external_node_fs_.promises.mkdir(external_node_path_.dirname(abs), { recursive: true });
        await external_node_fs_.promises.writeFile(abs, input.content, 'utf8');
        const bytes = Buffer.byteLength(input.content, 'utf8');
        const verb = existing ? 'Overwrote' : 'Created';
        return `${verb} ${shown} (${bytes} bytes, ${countLines(input.content)} lines).`;
    },
});

;// CONCATENATED MODULE: ./.tmp/build/tools/index.js







/** Every tool, in the order of the contract (and of the tool list sent to the model). */
const ALL_TOOLS = [
    readTool,
    writeTool,
    editTool,
    bash/* bashTool */.n,
    globTool,
    grepTool,
    todoWriteTool,
];
/** The named tools, in ALL_TOOLS order; an unknown name is a configuration error. */
function selectTools(names) {
    const known = new Set(ALL_TOOLS.map((tool) => tool.name));
    const unknown = names.filter((name) => !known.has(name));
    if (unknown.length > 0) {
        throw new Error(`Unknown tool name(s): ${unknown.join(', ')}. Available tools: ${[...known].join(', ')}.`);
    }
    const wanted = new Set(names);
    return ALL_TOOLS.filter((tool) => wanted.has(tool.name));
}


/***/ })

};
