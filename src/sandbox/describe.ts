import type { BwrapLayout, UserMapping } from './bwrap-args.js';
import type { AppArmorState, Found } from './probe.js';

export const OFF_DESCRIPTION = "The Bash sandbox is off (sandbox: off): commands can read and write whatever the runner's user can.";

function describeUser(user: UserMapping): string {
  switch (user.kind) {
    case 'mapped':
      return `, as uid ${user.uid} in a user namespace without root capabilities`;
    case 'root-no-caps':
      return ', as root without capabilities';
    case 'unprivileged':
      return '';
  }
}

function describeLimit(limit: number, cgroup: string | undefined, user: UserMapping): string {
  if (cgroup) return `at most ${limit} processes (pids cgroup)`;
  if (user.kind === 'unprivileged') return `at most ${limit} processes`;
  return 'no process limit (the kernel exempts root from it, so only the timeout stops a fork bomb)';
}

function describeNetwork(layout: BwrapLayout): string {
  if (layout.network === 'on') return 'network on';
  if (layout.network === 'off' || !layout.proxy) return 'network off';
  return 'network only to the allowed domains (through a filtering proxy)';
}

export function describeSandbox(layout: BwrapLayout, limit: number, cgroup: string | undefined, apparmor: AppArmorState): string {
  const hidden = [layout.home ? "the runner's home" : '', ...(layout.hide ?? []).map((h) => h.path)].filter(Boolean);
  const lifted = apparmor === 'lifted' ? " (after lifting Ubuntu's AppArmor restriction on user namespaces with sudo sysctl)" : '';
  return (
    `Bash commands run in a bubblewrap sandbox${lifted}: read-only system, writable workspace ${layout.workspace}, ` +
    `private /tmp${hidden.length > 0 ? `, ${hidden.join(', ')} hidden` : ''}, ${describeNetwork(layout)}, ` +
    `${describeLimit(limit, cgroup, layout.user)}${describeUser(layout.user)}.`
  );
}

/** Why no layout worked, with the AppArmor restriction named since bwrap's own error does not. */
export function unavailableReason(found: Found): string {
  const apparmor =
    found.apparmor === 'restricted'
      ? "; Ubuntu's AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1)" +
        ' and it could not be lifted with sudo'
      : '';
  return `bubblewrap could not start a sandbox (${found.reason})${apparmor}`;
}

export function describeUnsandboxed(reason: string, network?: string): string {
  const open = network === 'allowlist' || network === 'off' ? ` The network is open (network: ${network} needs the sandbox).` : '';
  return `Bash commands run WITHOUT a sandbox, because ${reason}: they can read and write whatever the runner's user can.${open}`;
}

export function strictFailure(reason: string): string {
  return `The Bash sandbox is required (sandbox: strict) but ${reason}.`;
}
