// `verdict kafka enable --space S --company C [--partitions N] [--json]`: create a space's request/response topic
// pair on the brokers (KAFKA_BROKERS and the other KAFKA_* connection settings) and bind it to the space.
// `verdict kafka list [--space S] [--json]`: the bindings. A running channel picks new bindings up by itself.
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import { storeCommand } from './space.ts';

function partitionCount(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000) throw new InvalidArgumentError('must be an integer from 1 to 10000');
  return Number(value);
}

export function register(program: Command): void {
  const kafka = program.command('kafka').description('the Kafka channel: topic pairs of spaces');
  kafka
    .command('enable')
    .description('create {company}-{random}-request and -response topics and bind them to the space')
    .requiredOption('--space <space>', 'the space whose solver keys the request topic accepts')
    .requiredOption('--company <company>', 'topic name prefix: letters, digits, ".", "_", "-"')
    .option('--partitions <n>', 'partitions of both topics (default KAFKA_PARTITIONS, 3)', partitionCount)
    .option('--json', 'print {"space", "requestTopic", "responseTopic"} only')
    .action(async (options: { space: string; company: string; partitions?: number; json?: boolean }) => {
      const binding = await storeCommand((services) =>
        services.kafka.enable({ space: options.space, company: options.company, partitions: options.partitions }),
      );
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ space: binding.space, requestTopic: binding.requestTopic, responseTopic: binding.responseTopic })}\n`);
        return;
      }
      process.stdout.write(
        [
          `Kafka enabled for space "${binding.space}":`,
          `  request topic:   ${binding.requestTopic}   (clients write; headers api-key, rule-id, ...)`,
          `  response topic:  ${binding.responseTopic}  (Verdict writes the results)`,
          '',
        ].join('\n'),
      );
    });
  kafka
    .command('list')
    .description('list the topic pairs bound to spaces')
    .option('--space <space>', 'only this space')
    .option('--json', 'print a JSON array')
    .action(async (options: { space?: string; json?: boolean }) => {
      const bindings = await storeCommand((services) => services.kafka.list(options.space));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(bindings)}\n`);
        return;
      }
      for (const b of bindings) process.stdout.write(`${b.space}\t${b.requestTopic}\t${b.responseTopic}\t${b.createdAt}\n`);
    });
}
