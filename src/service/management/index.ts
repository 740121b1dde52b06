// The management use cases (SPEC 5.1), grouped as the API groups them. Adapters call these with the space of the
// authenticated management key; every lookup is scoped to that space, so another space's rules and folders are
// indistinguishable from ones that do not exist.
import type { ManagementContext } from './context.ts';
import { DraftSolve } from './draft-solve.ts';
import { FolderManagement } from './folders.ts';
import { RuleHistory } from './history.ts';
import { RuleManagement } from './rules.ts';
import { TagManagement } from './tags.ts';
import { ToolsManagement } from './tools.ts';
import { TransferManagement } from './transfer.ts';
import { RuleReviews } from './reviews.ts';
import { XlsxManagement } from './xlsx.ts';

export class ManagementService {
  readonly rules: RuleManagement;
  readonly tags: TagManagement;
  readonly folders: FolderManagement;
  readonly transfer: TransferManagement;
  readonly tools: ToolsManagement;
  readonly drafts: DraftSolve;
  readonly history: RuleHistory;
  readonly reviews: RuleReviews;
  readonly xlsx: XlsxManagement;

  constructor(ctx: ManagementContext) {
    this.rules = new RuleManagement(ctx);
    this.tags = new TagManagement(ctx);
    this.folders = new FolderManagement(ctx);
    this.transfer = new TransferManagement(ctx);
    this.tools = new ToolsManagement(ctx);
    this.drafts = new DraftSolve(ctx);
    this.history = new RuleHistory(ctx);
    this.reviews = new RuleReviews(ctx);
    this.xlsx = new XlsxManagement(this.rules);
  }
}

export { badRequest, conflict, notFound } from './errors.ts';
export type { ManagementContext } from './context.ts';
