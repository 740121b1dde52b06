// Topic naming (SPEC 4): per space `{company}-{random_number}-request` and `{company}-{random_number}-response`.
import { randomInt } from 'node:crypto';

/** Kafka's legal topic characters; the full name must stay under Kafka's 249-character limit. */
const COMPANY = /^[A-Za-z0-9._-]{1,200}$/;

export function checkCompany(company: string): string | undefined {
  if (!COMPANY.test(company)) {
    return `company "${company}" must be 1-200 characters of letters, digits, ".", "_" and "-" (it becomes part of the topic names)`;
  }
  return undefined;
}

export interface TopicPair {
  requestTopic: string;
  responseTopic: string;
}

/** A fresh random number per enable, so re-enabling a space never reuses a topic that held old traffic. */
export function topicPair(company: string, random: number = randomInt(10_000_000, 100_000_000)): TopicPair {
  return { requestTopic: `${company}-${random}-request`, responseTopic: `${company}-${random}-response` };
}
