// `verdict rule publish|pending RULE [--version N] --space S`: set a rule version's status from the command line,
// e.g. to publish a pending version that `verdict import` brought in (pending versions cannot be solved). RULE is
// the rule id or alias; without --version, the latest version. Same use case as PUT /api/rule/status.
import type { Command } from 'commander';
import { VERSION_RANGE, versionFromText } from '../../rules/bounds.ts';
import { ServiceError } from '../../service/errors.ts';
import { CLI_ACTOR } from '../../service/management/history.ts';
import type { RuleStatus } from '../../store/ports.ts';
import { InputError } from '../errors.ts';
import { gateSetting } from '../solve-options.ts';
import { storeCommand } from './space.ts';

interface StatusOptions {
  space: string;
  version?: string;
  json?: boolean;
  force?: boolean;
}

/** A management failure as one line, with every problem (e.g. each failing test the publishing gate names). */
function failureLine(err: ServiceError, space: string): string {
  const problems = (err.problems ?? []).map((p) => `${p.path}: ${p.message}`).join('; ');
  return `${err.message} (space "${space}")${problems === '' ? '' : `: ${problems}`}`;
}

async function setStatus(rule: string, status: RuleStatus, options: StatusOptions): Promise<void> {
  // A bad --version is a wrong rule reference like an unknown rule (exit 1), named with the value given.
  const version = options.version === undefined ? undefined : versionFromText(options.version);
  if (options.version !== undefined && version === undefined) throw new InputError(`--version "${options.version}" must be ${VERSION_RANGE}`);
  const updated = await storeCommand(async (services) => {
    await services.spaces.require(options.space);
    try {
      return (await services.management.rules.setStatus(options.space, rule, status, version, { force: options.force === true, by: CLI_ACTOR })).document;
    } catch (err) {
      if (err instanceof ServiceError) throw new InputError(failureLine(err, options.space));
      throw err;
    }
  });
  const result = { ruleId: String(updated.ruleId), version: Number(updated.version), ruleAlias: String(updated.ruleAlias), status: String(updated.status) };
  if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else process.stdout.write(`rule ${result.ruleAlias} (id ${result.ruleId}) version ${result.version}: ${result.status}\n`);
}

export function register(program: Command): void {
  const rule = program.command('rule').description('manage rule versions');
  const statuses: Array<[RuleStatus, string, string]> = [
    ['published', 'publish', 'publish a rule version: it can be solved'],
    ['pending', 'pending', 'set a rule version to pending: solving it is refused until it is published again'],
  ];
  for (const [status, name, description] of statuses) {
    rule
      .command(name)
      .description(description)
      .argument('<rule>', 'rule id or alias')
      .option('--version <n>', 'the version (default: the latest version, whatever its status)')
      .requiredOption('--space <space>', 'the space of the rule')
      .option('--json', 'print {"ruleId", "version", "ruleAlias", "status"} only')
      .option('--force', status === 'published' ? 'publish even when the publishing gate finds failing tests (recorded in the test run history)' : 'no effect (publishing only)')
      .action((ruleRef: string, options: StatusOptions) => setStatus(ruleRef, status, options));
  }
  rule
    .command('publish-gate')
    .description("turn the publishing gate on or off for one rule, or back to the space's setting (inherit)")
    .argument('<rule>', 'rule id or alias')
    .argument('<setting>', 'on, off or inherit', gateSetting(['on', 'off', 'inherit']))
    .requiredOption('--space <space>', 'the space of the rule')
    .action(async (ruleRef: string, setting: string, options: { space: string }) => {
      const gate = await storeCommand(async (services) => {
        await services.spaces.require(options.space);
        try {
          return await services.ruleTests.setRuleGate(options.space, ruleRef, setting === 'inherit' ? null : setting === 'on');
        } catch (err) {
          if (err instanceof ServiceError) throw new InputError(failureLine(err, options.space));
          throw err;
        }
      });
      const why = gate.override === null ? `the space's setting` : 'its own setting';
      process.stdout.write(`publishing gate for rule ${gate.ruleId}: ${gate.enabled ? 'on' : 'off'} (${why})\n`);
    });
}

