// The space's jobs (GET/POST /api/space/jobs..., permission rules:solve): start one from a file, follow it, cancel
// it, download its results (docs/jobs.md).
import type { ApiClient } from '../api/client.ts';
import type { JobView } from '../../../src/service/jobs/service.ts';

/** The wire shape is the service's own. */
export type Job = JobView;

/** The upload's content type from the file name: NDJSON, CSV, or a JSON array. */
export function inputType(fileName: string): string {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'application/x-ndjson';
  if (lower.endsWith('.csv')) return 'text/csv';
  return 'application/json';
}

export const jobsApi = {
  list: (api: ApiClient) => api.call<Job[]>('GET', '/api/space/jobs'),
  start: (api: ApiClient, rule: string, version: number, file: File) =>
    api.upload<Job>('POST', `/api/space/jobs/start/${encodeURIComponent(rule)}/${version}`, file, inputType(file.name)),
  cancel: (api: ApiClient, jobId: string) => api.call<Job>('POST', `/api/space/jobs/cancel/${encodeURIComponent(jobId)}`),
  result: (api: ApiClient, jobId: string) => api.download(`/api/space/jobs/${encodeURIComponent(jobId)}/result`),
};

export function isActive(job: Job): boolean {
  return job.state === 'Waiting' || job.state === 'Running' || job.state === 'Cancelling';
}
