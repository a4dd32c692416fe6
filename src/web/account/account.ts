// The account area as the web module mounts it: its shared part and its pages' controllers.
import { InvitationController } from './invitation.controller.js';
import { PasswordResetController } from './password-reset.controller.js';
import { TeamController } from './team.controller.js';

export { AccountCoreModule } from './account-core.module.js';
export const ACCOUNT_CONTROLLERS = [PasswordResetController, InvitationController, TeamController];
