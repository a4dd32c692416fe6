// The rules of a company's team: only owners change roles and remove users (the pages check that with
// WebPages.owner), a company always keeps at least one owner, and nobody removes themselves.
import { Injectable } from '@nestjs/common';
import type { UserRole } from '../../companies/companies.repository.js';
import { type TeamMember, TeamRepository, type TeamRole } from './team.repository.js';

/** Why a team change was not made; the team page says it in its words and nothing changed. */
export class TeamChangeRefused extends Error {
  constructor(readonly reason: 'lastOwner' | 'removeSelf' | 'notFound') {
    super(`team change refused: ${reason}`);
  }
}

/** Who asks for a change: an owner of the company (checked by the caller). */
export interface TeamActor {
  companyId: string;
  userId: string;
}

@Injectable()
export class TeamService {
  constructor(private readonly team: TeamRepository) {}

  members(companyId: string): Promise<TeamMember[]> {
    return this.team.members(companyId);
  }

  /** Gives the user the role (and answers their e-mail address); demoting the company's last owner is refused. */
  changeRole(actor: TeamActor, userId: string, role: UserRole): Promise<string> {
    return this.team.transaction(async (manager) => {
      const roles = await this.team.lockedRoles(actor.companyId, manager);
      const user = roles.find((r) => r.id === userId);
      if (!user) throw new TeamChangeRefused('notFound');
      if (user.role === 'owner' && role !== 'owner' && !otherOwner(roles, userId)) throw new TeamChangeRefused('lastOwner');
      await this.team.setRole(actor.companyId, userId, role, manager);
      return user.email;
    });
  }

  /** Removes the user (answering their e-mail address); their sessions end at once, their open invitations and links go too. */
  async remove(actor: TeamActor, userId: string): Promise<string> {
    if (userId === actor.userId) throw new TeamChangeRefused('removeSelf');
    return this.team.transaction(async (manager) => {
      const roles = await this.team.lockedRoles(actor.companyId, manager);
      const user = roles.find((r) => r.id === userId);
      if (!user) throw new TeamChangeRefused('notFound');
      if (user.role === 'owner' && !otherOwner(roles, userId)) throw new TeamChangeRefused('lastOwner');
      await this.team.remove(actor.companyId, userId, manager);
      return user.email;
    });
  }
}

function otherOwner(roles: TeamRole[], userId: string): boolean {
  return roles.some((r) => r.role === 'owner' && r.id !== userId);
}
