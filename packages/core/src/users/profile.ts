import type { Services } from '../services';
import { badRequest } from '../shared/errors';
import { loadLiveUser } from './access';

/**
 * GET /users/{id}/profile: the public view (docs/users.md, "Public profile"). The owner always sees it (with
 * their email); anyone else only when the profile is public and ALLOW_PUBLIC_PROFILES is on, and never the
 * email. A private profile is a 400, as the profile rules say.
 */
export async function getPublicProfile(svc: Services, params: { requesterId: string | null; id: string }) {
  const user = await loadLiveUser(svc.db, params.id);
  const cfg = svc.config.users;
  const isOwner = params.requesterId === user.id;
  if (!isOwner && (user.profileVisibility !== 'public' || !cfg.allowPublicProfiles)) {
    throw badRequest('This profile is private', undefined, 'PROFILE_PRIVATE');
  }
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: isOwner ? user.email : null,
    bio: cfg.enableBio ? user.bio : null,
    avatarUrl: cfg.enableProfilePictures ? user.avatarUrl : null,
    socialLinks: cfg.enableSocialLinks ? (user.socialLinks ?? {}) : {},
    joinedAt: user.createdAt.toISOString(),
    isVerified: user.emailVerified,
    profileVisibility: user.profileVisibility,
  };
}
