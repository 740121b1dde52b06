// The Management API (SPEC 5.1) route groups, registered in the management docs group (/api/docs) beside the
// audit listing. Each group is its own encapsulated scope with the management error mapping.
import type { ManagementPlugin } from '../../app.ts';
import { authPlugin } from '../auth.ts';
import { oidcPlugin } from '../oidc.ts';
import { activityPlugin, eventsPlugin } from './activity.ts';
import { reviewsPlugin } from './reviews.ts';
import { foldersPlugin } from './folders.ts';
import { historyPlugin } from './history.ts';
import { spaceJobsPlugin } from './jobs.ts';
import { jdmPlugin } from './jdm.ts';
import { dmnPlugin } from './dmn.ts';
import { membersPlugin } from './members.ts';
import { ruleFlowsPlugin } from './rule-flows.ts';
import { rulesPlugin } from './rules.ts';
import { ruleTestsPlugin } from './rule-tests.ts';
import { spacePlugin } from './space.ts';
import { spaceOperationsPlugin } from './space-operations.ts';
import { tagsPlugin } from './tags.ts';
import { toolsPlugin } from './tools.ts';
import { webhooksPlugin } from './webhooks.ts';
import { xlsxPlugin } from './xlsx.ts';

export const MANAGEMENT_PLUGINS: ManagementPlugin[] = [
  rulesPlugin, spacePlugin, tagsPlugin, foldersPlugin, ruleFlowsPlugin, toolsPlugin, historyPlugin, ruleTestsPlugin,
  spaceOperationsPlugin, membersPlugin, authPlugin, oidcPlugin, activityPlugin, reviewsPlugin, xlsxPlugin, spaceJobsPlugin,
  eventsPlugin, webhooksPlugin, jdmPlugin, dmnPlugin,
];
