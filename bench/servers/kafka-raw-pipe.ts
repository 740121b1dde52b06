// The Kafka baseline: consume a request topic and produce a fixed answer to a response topic with the same client
// and the same delivery guarantees as Verdict's channel (idempotent producer, acks=all, Nagle-style batching,
// offsets committed only after the answer was acknowledged), but no parsing, no auth, no solving.
// Env: BROKERS (comma list), IN_TOPIC, OUT_TOPIC, GROUP_ID, RESPONSE_FILE (the answer's `data` JSON).
import { readFileSync } from 'node:fs';
import { Consumer, Producer, stringDeserializers, stringSerializers } from '@platformatic/kafka';
import type { Message } from '@platformatic/kafka';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    console.error(`kafka-raw-pipe: ${name} is required`);
    process.exit(2);
  }
  return value;
};
const brokers = env('BROKERS').split(',');
const inTopic = env('IN_TOPIC');
const outTopic = env('OUT_TOPIC');
const data = readFileSync(env('RESPONSE_FILE'), 'utf8').trim();

const producer = new Producer({ clientId: 'bench-raw-pipe-producer', bootstrapBrokers: brokers, idempotent: true, serializers: stringSerializers });
const consumer = new Consumer({ clientId: 'bench-raw-pipe-consumer', groupId: env('GROUP_ID'), bootstrapBrokers: brokers, deserializers: stringDeserializers });

type Out = { topic: string; value: string; headers: Record<string, string> };
const queue: { out: Out; message: Message<string, string, string, string> }[] = [];
let sending = false;
const acknowledged = new Map<string, { topic: string; partition: number; offset: bigint; leaderEpoch: number }>();

async function drain(): Promise<void> {
  sending = true;
  try {
    while (queue.length > 0) {
      const batch = queue.splice(0, 2000);
      await producer.send({ messages: batch.map((b) => b.out) });
      for (const { message } of batch) {
        const key = `${message.topic}:${message.partition}`;
        const current = acknowledged.get(key);
        if (!current || current.offset <= message.offset) acknowledged.set(key, { topic: message.topic, partition: message.partition, offset: message.offset + 1n, leaderEpoch: message.leaderEpoch });
      }
    }
  } finally {
    sending = false;
  }
}

const committer = setInterval(() => {
  if (acknowledged.size === 0) return;
  const offsets = [...acknowledged.values()];
  acknowledged.clear();
  consumer.commit({ offsets }).catch((error: unknown) => console.error('commit failed', error));
}, 100);

const stream = await consumer.consume({ topics: [inTopic], mode: 'latest', autocommit: false });
stream.on('data', (message: Message<string, string, string, string>) => {
  const correlationId = message.headers.get('x-correlation-id');
  const headers: Record<string, string> = correlationId === undefined ? {} : { 'x-correlation-id': correlationId };
  const value = correlationId === undefined ? `{"data":${data}}` : `{"data":${data},"correlationId":${JSON.stringify(correlationId)}}`;
  queue.push({ out: { topic: outTopic, value, headers }, message });
  if (!sending) void drain().catch((error: unknown) => console.error('produce failed', error));
});

const stop = async (): Promise<void> => {
  clearInterval(committer);
  await stream.close().catch(() => undefined);
  await consumer.close(true).catch(() => undefined);
  await producer.close().catch(() => undefined);
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
console.log('kafka-raw-pipe ready');
