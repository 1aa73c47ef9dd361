import { describe, expect, it } from 'vitest';
import type { CoreConfig } from '../config';
import { ManualClock } from '../shared/clock';
import { profilePatchIssues } from './update-user';

const users: CoreConfig['users'] = {
  allowPublicProfiles: true,
  enableProfilePictures: true,
  enableBio: true,
  enableSocialLinks: true,
  maxBioLength: 500,
  maxAvatarSize: 5_242_880,
  allowedImageTypes: ['jpg', 'jpeg', 'png', 'gif'],
  uploadPath: '/tmp/unused',
};
const svc = (over: Partial<CoreConfig['users']> = {}) => ({
  config: { users: { ...users, ...over } } as CoreConfig,
  clock: new ManualClock(new Date('2026-03-15T12:00:00Z')),
});
const codes = (s: ReturnType<typeof svc>, patch: Parameters<typeof profilePatchIssues>[1]) =>
  profilePatchIssues(s, patch).map((i) => `${i.path}:${i.code}`);

describe('profile rules that depend on configuration and time', () => {
  it('limits the bio to MAX_BIO_LENGTH characters (not UTF-16 units)', () => {
    expect(codes(svc(), { bio: 'é'.repeat(500) })).toEqual([]);
    expect(codes(svc(), { bio: '😀'.repeat(500) })).toEqual([]);
    expect(codes(svc(), { bio: 'x'.repeat(501) })).toEqual(['bio:too_big']);
    expect(codes(svc({ maxBioLength: 10 }), { bio: 'x'.repeat(11) })).toEqual(['bio:too_big']);
  });
  it('refuses bios and social links when those features are off; clearing stays possible', () => {
    const off = svc({ enableBio: false, enableSocialLinks: false });
    expect(codes(off, { bio: 'hi', socialLinks: { a: 'b' } })).toEqual([
      'bio:FEATURE_DISABLED',
      'socialLinks:FEATURE_DISABLED',
    ]);
    expect(codes(off, { bio: null, socialLinks: {} })).toEqual([]);
  });
  it('wants a date of birth strictly before today (UTC, from the clock)', () => {
    expect(codes(svc(), { dateOfBirth: '2026-03-14' })).toEqual([]);
    expect(codes(svc(), { dateOfBirth: '2026-03-15' })).toEqual(['dateOfBirth:not_in_past']);
    expect(codes(svc(), { dateOfBirth: '2030-01-01' })).toEqual(['dateOfBirth:not_in_past']);
  });
});
