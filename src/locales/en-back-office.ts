import { enLists } from './en/lists';
import { enAssets } from './en/assets';
import { enAssetEditor } from './en/asset-editor';
import { enMorphs } from './en/morphs';
import { enTrash } from './en/trash';
import { enUsers } from './en/users';
import { enAccount } from './en/account';
import { enActivity } from './en/activity';
import { enDashboard } from './en/dashboard';
import { enBulkJobs } from './en/bulk-jobs';

/**
 * English texts of the signed-in back office, one file per area under ./en/. Loaded with the
 * signed-in area (src/i18n.ts loadBackOfficeTexts), so the sign-in page does not carry them.
 */
export const enBackOffice = {
  ...enLists,
  ...enAssets,
  ...enAssetEditor,
  ...enMorphs,
  ...enTrash,
  ...enUsers,
  ...enAccount,
  ...enActivity,
  ...enDashboard,
  ...enBulkJobs,
} as const;
