export const id = 767;
export const ids = [767];
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

/***/ 1767:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DEFAULT_PROCESS_LIMIT: () => (/* binding */ DEFAULT_PROCESS_LIMIT),
/* harmony export */   SandboxUnavailableError: () => (/* binding */ SandboxUnavailableError),
/* harmony export */   TOOLCHAIN_DIRS: () => (/* binding */ TOOLCHAIN_DIRS),
/* harmony export */   bwrapArgs: () => (/* binding */ bwrapArgs),
/* harmony export */   limitProcesses: () => (/* binding */ limitProcesses),
/* harmony export */   prepareSandbox: () => (/* binding */ prepareSandbox),
/* harmony export */   sandboxedBashTool: () => (/* binding */ sandboxedBashTool)
/* harmony export */ });
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1421);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7598);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3024);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6760);
/* harmony import */ var _bash_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6600);





class SandboxUnavailableError extends Error {
    name = 'SandboxUnavailableError';
}
/** Dirs under HOME that hold the toolchains PATH points at; bound back read-only. */
const TOOLCHAIN_DIRS = [
    '.cargo',
    '.rustup',
    '.dotnet',
    '.nvm',
    '.pyenv',
    '.rbenv',
    '.local/bin',
    'go/bin',
    '.bun',
    '.deno',
];
const DEFAULT_PROCESS_LIMIT = 2048;
const APPARMOR_SYSCTL = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';
const DEFAULT_SANDBOX_UID = 1000;
const HELPER_TIMEOUT_MS = 10_000;
function isInside(child, parent) {
    const rel = node_path__WEBPACK_IMPORTED_MODULE_3__.relative(parent, child);
    return rel === '' || (!rel.startsWith('..') && !node_path__WEBPACK_IMPORTED_MODULE_3__.isAbsolute(rel));
}
function userArgs(user) {
    switch (user.kind) {
        case 'unprivileged':
            return ['--unshare-user-try'];
        case 'mapped':
            return ['--unshare-user', '--uid', String(user.uid), '--gid', String(user.gid)];
        case 'root-no-caps':
            return ['--cap-drop', 'ALL'];
    }
}
function hideArgs(entry) {
    return entry.kind === 'dir' ? ['--tmpfs', entry.path] : ['--ro-bind', '/dev/null', entry.path];
}
function envArgs(env, home) {
    const args = ['--clearenv'];
    for (const [name, value] of Object.entries({ ...env, HOME: home }))
        args.push('--setenv', name, value);
    return args;
}
/** The bubblewrap command line for argv; pure, so the mount order can be checked without bwrap. */
function bwrapArgs(layout, argv) {
    const hide = layout.hide ?? [];
    // Mounts apply in order: the workspace may live under HOME or a hidden dir, so it is bound
    // after them, and hidden paths inside the workspace go after it.
    const hiddenInside = hide.filter((h) => isInside(h.path, layout.workspace));
    const hiddenOutside = hide.filter((h) => !isInside(h.path, layout.workspace));
    return [
        '--die-with-parent',
        '--new-session',
        '--unshare-pid',
        '--unshare-ipc',
        '--unshare-uts',
        '--unshare-cgroup-try',
        ...userArgs(layout.user),
        ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--perms', '1777', '--tmpfs', '/tmp'],
        ...(layout.home ? ['--tmpfs', layout.home] : []),
        ...(layout.toolchainDirs ?? []).flatMap((dir) => ['--ro-bind', dir, dir]),
        ...hiddenOutside.flatMap(hideArgs),
        ...['--bind', layout.workspace, layout.workspace],
        ...hiddenInside.flatMap(hideArgs),
        ...(layout.readOnlyInWorkspace ?? []).flatMap((p) => ['--ro-bind', p, p]),
        ...(layout.network === 'off' ? ['--unshare-net'] : []),
        ...envArgs(layout.env, layout.home ?? '/tmp'),
        ...['--chdir', layout.workspace],
        '--',
        ...argv,
    ];
}
/** Runs argv under RLIMIT_NPROC; bash's own ulimit, since bash is there whenever the Bash tool is. */
function limitProcesses(argv, max) {
    return ['bash', '-c', 'ulimit -u "$0" 2>/dev/null; exec "$@"', String(max), ...argv];
}
const defaultRun = (cmd, args) => new Promise((resolve) => {
    (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.execFile)(cmd, args, { timeout: HELPER_TIMEOUT_MS, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 127;
        resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
    });
});
async function isExecutable(file) {
    try {
        await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.access(file, node_fs__WEBPACK_IMPORTED_MODULE_2__.constants.X_OK);
        return (await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.stat(file)).isFile();
    }
    catch {
        return false;
    }
}
async function findOnPath(name) {
    for (const dir of (process.env['PATH'] ?? '').split(node_path__WEBPACK_IMPORTED_MODULE_3__.delimiter)) {
        const candidate = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir || '.', name);
        if (await isExecutable(candidate))
            return candidate;
    }
    return undefined;
}
async function kindOf(p) {
    try {
        const real = await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.realpath(p);
        return { real, kind: (await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.stat(real)).isDirectory() ? 'dir' : 'file' };
    }
    catch {
        return undefined;
    }
}
async function existingDirs(paths) {
    const found = await Promise.all(paths.map(async (p) => ((await kindOf(p))?.kind === 'dir' ? p : undefined)));
    return found.filter((p) => p !== undefined);
}
/** The mounts for o, with every path checked: bwrap refuses to bind what does not exist. */
async function layoutFor(o, user) {
    const realHome = o.home ? (await kindOf(o.home))?.real : undefined;
    // A HOME of / (seen in containers) would hide the whole system.
    const home = realHome && realHome !== node_path__WEBPACK_IMPORTED_MODULE_3__.parse(realHome).root ? realHome : undefined;
    const toolchainDirs = home ? await existingDirs(TOOLCHAIN_DIRS.map((d) => node_path__WEBPACK_IMPORTED_MODULE_3__.join(home, d))) : [];
    const hidden = await Promise.all((o.hide ?? []).map(kindOf));
    const readOnly = await Promise.all((o.readOnlyInWorkspace ?? []).map((p) => kindOf(node_path__WEBPACK_IMPORTED_MODULE_3__.resolve(o.workspace, p))));
    return {
        workspace: o.workspace,
        ...(home ? { home } : {}),
        toolchainDirs,
        hide: hidden.flatMap((h) => (h ? [{ path: h.real, kind: h.kind }] : [])),
        readOnlyInWorkspace: readOnly.flatMap((r) => (r && isInside(r.real, o.workspace) ? [r.real] : [])),
        network: o.network,
        env: o.env,
        user,
    };
}
function userCandidates(o) {
    if (process.getuid?.() !== 0)
        return [{ kind: 'unprivileged' }];
    const uid = o.sandboxUid ?? DEFAULT_SANDBOX_UID;
    return [{ kind: 'mapped', uid, gid: uid }, { kind: 'root-no-caps' }];
}
function firstLine(text) {
    return text.trim().split('\n')[0]?.trim() ?? '';
}
/** Runs what a real command gets, plus a write to the workspace, which must stay writable. */
async function probe(run, bwrap, layout, limit) {
    const marker = node_path__WEBPACK_IMPORTED_MODULE_3__.join(layout.workspace, `.agent-action-sandbox-probe-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_1__.randomBytes)(6).toString('hex')}`);
    const check = ['bash', '-c', ': > "$0" && rm -f -- "$0"', marker];
    const result = await run(bwrap, bwrapArgs(layout, limitProcesses(check, limit)));
    await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.rm(marker, { force: true });
    if (result.code === 0)
        return undefined;
    return firstLine(result.stderr) || `bwrap exited with code ${result.code}`;
}
async function probeCandidates(o, run, bwrap, limit) {
    let reason = '';
    for (const user of userCandidates(o)) {
        const layout = await layoutFor(o, user);
        const failure = await probe(run, bwrap, layout, limit);
        if (failure === undefined)
            return { layout, reason: '' };
        reason ||= failure;
    }
    return { reason };
}
async function readsOne(file) {
    try {
        return (await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.readFile(file, 'utf8')).trim() === '1';
    }
    catch {
        return false;
    }
}
/** Ubuntu 24.04 restricts unprivileged user namespaces; a GitHub-hosted runner may lift that with sudo. */
async function liftAppArmor(o, run) {
    if (!(await readsOne(o.apparmorSysctlPath ?? APPARMOR_SYSCTL)))
        return 'none';
    if (!o.githubHosted || (await run('sudo', ['-n', 'true'])).code !== 0)
        return 'restricted';
    const sysctl = await run('sudo', ['-n', 'sysctl', '-w', 'kernel.apparmor_restrict_unprivileged_userns=0']);
    return sysctl.code === 0 ? 'lifted' : 'restricted';
}
async function findWorkingLayout(o, run, bwrap, limit) {
    const first = await probeCandidates(o, run, bwrap, limit);
    if (first.layout)
        return { ...first, apparmor: 'none' };
    const apparmor = await liftAppArmor(o, run);
    if (apparmor !== 'lifted')
        return { ...first, apparmor };
    return { ...(await probeCandidates(o, run, bwrap, limit)), apparmor };
}
/** The pids hierarchy our own process sits in, from /proc/self/cgroup (v1 first, then pure v2). */
async function detectPidsCgroup() {
    const lines = (await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.readFile('/proc/self/cgroup', 'utf8').catch(() => '')).split('\n');
    const v1 = lines.map((l) => l.split(':')).find((f) => f[1]?.split(',').includes('pids'));
    if (v1?.[2] !== undefined)
        return node_path__WEBPACK_IMPORTED_MODULE_3__.join('/sys/fs/cgroup/pids', v1[2]);
    const v2 = lines.find((l) => l.startsWith('0::'));
    const controllers = await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.readFile('/sys/fs/cgroup/cgroup.controllers', 'utf8').catch(() => '');
    return v2 && controllers.split(/\s+/).includes('pids') ? node_path__WEBPACK_IMPORTED_MODULE_3__.join('/sys/fs/cgroup', v2.slice(3)) : undefined;
}
/**
 * A child pids cgroup capped at max, or undefined when none can be made. Root needs it: the
 * kernel exempts uid 0 from RLIMIT_NPROC, also inside a user namespace whose ids map to root.
 */
async function createPidsCgroup(o, max) {
    if (o.pidsCgroup === false || (o.pidsCgroup === undefined && process.getuid?.() !== 0))
        return undefined;
    const parent = o.pidsCgroup ?? (await detectPidsCgroup());
    if (parent === undefined)
        return undefined;
    const dir = node_path__WEBPACK_IMPORTED_MODULE_3__.join(parent, `agent-action-sandbox-${process.pid}-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_1__.randomBytes)(4).toString('hex')}`);
    try {
        await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.mkdir(dir);
        await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.writeFile(node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, 'pids.max'), String(max));
        return dir;
    }
    catch {
        await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.rmdir(dir).catch(() => undefined);
        return undefined;
    }
}
async function removeCgroup(dir) {
    // A killed pid namespace is torn down asynchronously: rmdir says EBUSY until the group is empty.
    for (let attempt = 0; attempt < 30; attempt++) {
        const busy = await node_fs__WEBPACK_IMPORTED_MODULE_2__.promises.rmdir(dir).then(() => false, (error) => error.code === 'EBUSY');
        if (!busy)
            return;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}
/** Puts the wrapped process into the cgroup before bwrap starts; refuses to run when that fails. */
function joinCgroup(cgroup, argv) {
    if (cgroup === undefined)
        return argv;
    const script = 'echo $$ > "$0" || { echo "could not apply the sandbox process limit" >&2; exit 126; }; exec "$@"';
    return ['/bin/sh', '-c', script, node_path__WEBPACK_IMPORTED_MODULE_3__.join(cgroup, 'cgroup.procs'), ...argv];
}
/** A pids cgroup that a process could join just now, or undefined (and nothing left behind). */
async function usableCgroup(o, limit) {
    const cgroup = await createPidsCgroup(o, limit);
    if (cgroup === undefined)
        return undefined;
    const joined = await (o.run ?? defaultRun)('/bin/sh', joinCgroup(cgroup, ['true']).slice(1));
    if (joined.code === 0)
        return cgroup;
    await removeCgroup(cgroup);
    return undefined;
}
function describeUser(user) {
    switch (user.kind) {
        case 'mapped':
            return `, as uid ${user.uid} in a user namespace without root capabilities`;
        case 'root-no-caps':
            return ', as root without capabilities';
        case 'unprivileged':
            return '';
    }
}
function describeLimit(limit, cgroup, user) {
    if (cgroup)
        return `at most ${limit} processes (pids cgroup)`;
    if (user.kind === 'unprivileged')
        return `at most ${limit} processes`;
    return 'no process limit (the kernel exempts root from it, so only the timeout stops a fork bomb)';
}
function describeSandbox(layout, limit, cgroup, apparmor) {
    const hidden = [layout.home ? "the runner's home" : '', ...(layout.hide ?? []).map((h) => h.path)].filter(Boolean);
    const lifted = apparmor === 'lifted' ? " (after lifting Ubuntu's AppArmor restriction on user namespaces with sudo sysctl)" : '';
    return (`Bash commands run in a bubblewrap sandbox${lifted}: read-only system, writable workspace ${layout.workspace}, ` +
        `private /tmp${hidden.length > 0 ? `, ${hidden.join(', ')} hidden` : ''}, network ${layout.network}, ` +
        `${describeLimit(limit, cgroup, layout.user)}${describeUser(layout.user)}.`);
}
function unavailableReason(found) {
    const apparmor = found.apparmor === 'restricted'
        ? "; Ubuntu's AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1) and it could not be lifted with sudo"
        : '';
    return `bubblewrap could not start a sandbox (${found.reason})${apparmor}`;
}
function unsandboxed(o, reason) {
    if (o.mode === 'strict')
        throw new SandboxUnavailableError(`The Bash sandbox is required (sandbox: strict) but ${reason}.`);
    return {
        kind: 'none',
        description: `Bash commands run WITHOUT a sandbox, because ${reason}: they can read and write whatever the runner's user can.`,
        processesLimited: false,
        dispose: async () => undefined,
    };
}
function bubblewrap(bwrap, layout, limit, cgroup, found) {
    return {
        kind: 'bubblewrap',
        description: describeSandbox(layout, limit, cgroup, found.apparmor),
        wrap: (argv) => joinCgroup(cgroup, [bwrap, ...bwrapArgs(layout, limitProcesses(argv, limit))]),
        processesLimited: cgroup !== undefined || layout.user.kind === 'unprivileged',
        dispose: async () => {
            if (cgroup)
                await removeCgroup(cgroup);
        },
    };
}
/**
 * Finds and probes bubblewrap and returns the sandbox Bash commands run in. Fails closed in
 * 'strict' mode; in 'auto' mode a missing or broken bubblewrap gives kind 'none', said plainly.
 */
async function prepareSandbox(o) {
    if (o.mode === 'off') {
        return {
            kind: 'none',
            description: "The Bash sandbox is off (sandbox: off): commands can read and write whatever the runner's user can.",
            processesLimited: false,
            dispose: async () => undefined,
        };
    }
    const bwrap = o.bwrapPath ?? (await findOnPath('bwrap'));
    if (bwrap === undefined)
        return unsandboxed(o, 'bubblewrap (bwrap) is not installed');
    if (!(await isExecutable(bwrap)))
        return unsandboxed(o, `bubblewrap was not found at ${bwrap}`);
    const limit = o.processLimit ?? DEFAULT_PROCESS_LIMIT;
    const found = await findWorkingLayout(o, o.run ?? defaultRun, bwrap, limit);
    if (!found.layout)
        return unsandboxed(o, unavailableReason(found));
    const cgroup = await usableCgroup(o, limit);
    return bubblewrap(bwrap, found.layout, limit, cgroup, found);
}
/** The Bash tool, wrapped in the sandbox when there is one. */
function sandboxedBashTool(sandbox) {
    return sandbox.kind === 'none' || !sandbox.wrap ? _bash_js__WEBPACK_IMPORTED_MODULE_4__/* .bashTool */ .n : (0,_bash_js__WEBPACK_IMPORTED_MODULE_4__/* .createBashTool */ .r)({ wrap: sandbox.wrap });
}


/***/ })

};
