import { describe, expect, it } from 'vitest';
import { ConfigSchema, defaultConfig } from '../../config/schema.js';
import { formatSandboxReport, sandboxReport } from './report.js';

describe('sandbox report', () => {
  it('says it works, with path, version and the lanes', () => {
    const text = formatSandboxReport(
      sandboxReport(
        { available: true, path: '/usr/bin/bwrap', version: 'bubblewrap 0.8.0', userNamespaces: 'enabled' },
        defaultConfig(),
      ),
    );
    expect(text).toContain('sandbox: works here');
    expect(text).toContain('/usr/bin/bwrap (bubblewrap 0.8.0)');
    expect(text).toMatch(/tui\s+off \(default\)/);
    expect(text).toMatch(/cron\s+workspace \(default, network on\)/);
  });

  it('says why not, and what a configured lane does then', () => {
    const config = ConfigSchema.parse({ terminal: { sandbox: { cron: 'strict', tui: 'workspace' } } });
    const text = formatSandboxReport(
      sandboxReport(
        {
          available: false,
          userNamespaces: 'disabled (user.max_user_namespaces = 0)',
          reason: 'bwrap cannot start a sandbox here: No permissions',
        },
        config,
      ),
    );
    expect(text).toContain('does NOT work here');
    expect(text).toContain('why: bwrap cannot start a sandbox here');
    expect(text).toMatch(/cron\s+strict \(configured, network off\) — cannot run here: commands are refused/);
    expect(text).toMatch(/tui\s+workspace .* asks once per session/);
    expect(text).toMatch(/platforms\s+off \(default\)/);
  });
});
