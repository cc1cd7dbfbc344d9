/**
 * Infrastructure tools that change machines other than this one, or this one's storage and
 * network:
 * - `kubectl-change` — `kubectl` verbs that change a cluster (`apply`, `delete`, `scale`, `drain`,
 *   `cordon`, `taint`, `patch`, `edit`, `exec`, `cp`, `replace`, `create`, `rollout` …), unless
 *   the command is a dry run (`--dry-run=client|server` as an option of that kubectl, before `--`;
 *   `exec` and `cp` always ask);
 * - `talos-change` — `talosctl` verbs that reset, reboot, upgrade or reconfigure nodes;
 * - `storage-pool-change` — `zfs`/`zpool` verbs other than the read-only ones (`list`, `get`,
 *   `status`, `iostat`, `history`, `events`, `diff`, `holds`, `version`);
 * - `firewall-change` — `ufw` (but `status`/`show`/`app list|info`), `iptables`/`ip6tables` with a
 *   changing command (`-A -D -I -R -N -X -P -E -Z`), `nft` (but `list`/`describe`/`monitor`),
 *   `firewall-cmd` with a changing option (`--add-*`, `--remove-*`, `--set-*`, `--new-*`,
 *   `--delete-*`, `--change-*`, `--reload`, `--panic-on`, `--runtime-to-permanent`);
 * - `vpn-change` — `wg set|setconf|addconf|syncconf`, `wg-quick up|down`;
 * - `ansible-run` — `ansible-playbook` unless `--check`/`-C`/`--syntax-check`/`--list-*` is one of
 *   its own options (`-e 'mode=--check'` and `/tmp/--check` are not).
 *
 * Flushing all firewall rules stays `firewall-flush` (system.ts). Targets: the tool and its verb,
 * then its operands.
 */
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { programName } from './argv.js';
import type { CommandRule } from './types.js';

/** Options (per tool) whose next word is their value, so it is not read as the verb. */
const VALUED: Record<string, RegExp> = {
  kubectl:
    /^(?:-n|--namespace|--context|--cluster|--user|--kubeconfig|-s|--server|--token|--as|--as-group|-l|--selector|-o|--output|-f|--filename|-c|--container|-p|--patch|--type|--field-manager|--replicas|--timeout|--grace-period|-k|--kustomize|--from-literal|--from-file|--image)$/,
  talosctl: /^(?:-n|--nodes|-e|--endpoints|--talosconfig|--context|-f|--file|--image|--mode|-m)$/,
  'ansible-playbook':
    /^(?:-i|--inventory|-e|--extra-vars|-t|--tags|--skip-tags|-l|--limit|-u|--user|-c|--connection|-f|--forks|--vault-id|--vault-password-file|-M|--module-path|--private-key|--become-user|--become-method|-T|--timeout|--start-at-task)$/,
};

/** The first word after the program that is not an option or an option's value, and its index. */
function verbOf(cmd: SimpleCommand, valued?: RegExp): { verb: string; at: number } {
  const argv = cmd.argv;
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]!.value;
    if (v === '--') return { verb: (argv[i + 1]?.value ?? '').toLowerCase(), at: i + 1 };
    if (!v.startsWith('-') || v === '-') return { verb: v.toLowerCase(), at: i };
    if (valued?.test(v)) i++;
  }
  return { verb: '', at: argv.length };
}

/** The options of `cmd` before `--` as written, with the words that are their values skipped. */
function ownOptions(cmd: SimpleCommand, valued?: RegExp): string[] {
  const out: string[] = [];
  const argv = cmd.argv;
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]!.value;
    if (v === '--') break;
    if (!v.startsWith('-') || v === '-') continue;
    out.push(v);
    if (valued?.test(v)) i++;
  }
  return out;
}

const operandsAfter = (cmd: SimpleCommand, at: number): string[] =>
  cmd.argv
    .slice(at + 1)
    .map((w: ShellWord) => w.value)
    .filter((v) => !v.startsWith('-'));

/** A rule about one tool: `verbs` says whether (and on what) a command of that tool changes things. */
function toolRule(
  key: string,
  description: string,
  match: (cmd: SimpleCommand, name: string) => string[] | null,
): CommandRule {
  return { key, description, match: (cmd) => match(cmd, programName(cmd)) };
}

const KUBECTL_READ =
  /^(?:get|describe|logs|top|explain|api-resources|api-versions|version|cluster-info|config|diff|auth|wait|events|completion|plugin|options|kustomize|port-forward|proxy|help|)$/;

const KUBECTL_CHANGE = toolRule(
  'kubectl-change',
  'change a Kubernetes cluster (kubectl apply/delete/scale/drain/exec …)',
  (cmd, name) => {
    if (name !== 'kubectl' && name !== 'oc') return null;
    const { verb, at } = verbOf(cmd, VALUED.kubectl);
    if (KUBECTL_READ.test(verb)) return null;
    // a dry run as kubectl's own option (`--dry-run` alone is `client`; `none` runs for real)
    // (a bare `--dry-run` before a word is not trusted: that word may be read as an operand)
    const dry = ownOptions(cmd, VALUED.kubectl).some((o) => /^--dry-run=(?:client|server)$/.test(o));
    if (dry && verb !== 'exec' && verb !== 'cp') return null;
    return [`kubectl ${verb}`, ...operandsAfter(cmd, at)];
  },
);

const TALOS_CHANGE = toolRule(
  'talos-change',
  'reset, reboot, upgrade or reconfigure Talos nodes (talosctl)',
  (cmd, name) => {
    if (name !== 'talosctl') return null;
    const { verb, at } = verbOf(cmd, VALUED.talosctl);
    const changing =
      /^(?:reset|reboot|shutdown|upgrade|upgrade-k8s|apply-config|apply|patch|edit|bootstrap|rollback|image|restart|service|wipe|etcd)$/;
    return changing.test(verb) ? [`talosctl ${verb}`, ...operandsAfter(cmd, at)] : null;
  },
);

const STORAGE_POOL_CHANGE = toolRule(
  'storage-pool-change',
  'change ZFS datasets or pools (zfs destroy/rollback/set, zpool destroy/detach …)',
  (cmd, name) => {
    if (name !== 'zfs' && name !== 'zpool') return null;
    const { verb, at } = verbOf(cmd);
    const reads =
      /^(?:list|get|status|iostat|history|events|diff|holds|version|help|userspace|groupspace|projectspace|)$/;
    return reads.test(verb) ? null : [`${name} ${verb}`, ...operandsAfter(cmd, at)];
  },
);

const FIREWALL_CHANGE = toolRule(
  'firewall-change',
  'change firewall rules (ufw allow/deny/enable, iptables -A/-D/-P, nft add/delete, firewall-cmd --add-*)',
  (cmd, name) => {
    const words = cmd.argv.slice(1).map((w) => w.value);
    if (name === 'ufw') {
      const { verb } = verbOf(cmd);
      // `disable` and `reset` are firewall-flush (system.ts)
      if (/^(?:status|show|version|help|disable|reset|)$/.test(verb)) return null;
      if (verb === 'app' && /^(?:list|info)$/.test(words[words.indexOf('app') + 1] ?? '')) return null;
      return [`ufw ${verb}`, ...words.filter((w) => w !== verb && !w.startsWith('-'))];
    }
    if (/^(?:ip6?tables|ebtables|arptables)(?:-legacy|-nft)?$/.test(name)) {
      const changing = words.some(
        (w) =>
          /^--(?:append|delete|insert|replace|new-chain|delete-chain|policy|rename-chain|zero)$/.test(w) ||
          /^-[ADIRNXPEZ]/.test(w),
      );
      return changing ? [name, ...words] : null;
    }
    if (name === 'nft') {
      const { verb } = verbOf(cmd);
      // `flush` is firewall-flush (system.ts)
      return /^(?:list|describe|monitor|help|flush|)$/.test(verb) ? null : [`nft ${verb}`, ...words];
    }
    if (name === 'firewall-cmd') {
      const changing = words.some((w) =>
        /^--(?:add|remove|set|new|delete|change|query-panic|panic-on|reload|complete-reload|runtime-to-permanent|lockdown-on|lockdown-off)/.test(
          w,
        ),
      );
      return changing && !words.every((w) => /^--(?:query|list|get|info|state)/.test(w))
        ? ['firewall-cmd', ...words]
        : null;
    }
    return null;
  },
);

const VPN_CHANGE = toolRule(
  'vpn-change',
  'change a WireGuard interface (wg set/setconf/addconf, wg-quick up/down)',
  (cmd, name) => {
    const { verb, at } = verbOf(cmd);
    if (name === 'wg' && /^(?:set|setconf|addconf|syncconf)$/.test(verb))
      return [`wg ${verb}`, ...operandsAfter(cmd, at)];
    if (name === 'wg-quick' && /^(?:up|down|save)$/.test(verb))
      return [`wg-quick ${verb}`, ...operandsAfter(cmd, at)];
    return null;
  },
);

const ANSIBLE_RUN = toolRule(
  'ansible-run',
  'run an Ansible playbook against hosts (ansible-playbook)',
  (cmd, name) => {
    if (name !== 'ansible-playbook') return null;
    const options = ownOptions(cmd, VALUED['ansible-playbook']);
    const dry = options.some(
      (o) =>
        /^--(?:check|syntax-check|list-hosts|list-tasks|list-tags|help|version)$/.test(o) ||
        /^-[a-zA-Z]*C[a-zA-Z]*$/.test(o) ||
        o === '-h',
    );
    if (dry) return null;
    const playbooks = cmd.argv
      .slice(1)
      .filter(
        (w, i, all) => !w.value.startsWith('-') && !VALUED['ansible-playbook']!.test(all[i - 1]?.value ?? ''),
      )
      .map((w) => w.value);
    return ['ansible-playbook', ...playbooks];
  },
);

/** The infrastructure rules. */
export const INFRA_RULES: readonly CommandRule[] = [
  KUBECTL_CHANGE,
  TALOS_CHANGE,
  STORAGE_POOL_CHANGE,
  FIREWALL_CHANGE,
  VPN_CHANGE,
  ANSIBLE_RUN,
];
