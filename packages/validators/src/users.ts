import { z } from 'zod';
import { isoDateTime } from './common';

export const USER_STATUS = z.enum(['pending_verification', 'active', 'suspended']);
export const USER_ROLE = z.enum(['user', 'admin']);

export const preferencesSchema = z
  .object({
    theme: z.enum(['light', 'dark']),
    language: z.string(),
    notifications: z.object({ email: z.boolean(), push: z.boolean(), sms: z.boolean() }),
    privacy: z.object({
      profileVisibility: z.enum(['public', 'private']),
      showEmail: z.boolean(),
      showPhoneNumber: z.boolean(),
    }),
  })
  .meta({ id: 'Preferences' });

export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    organizationName: z.string().nullable(),
    bio: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    dateOfBirth: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    socialLinks: z.record(z.string(), z.string()),
    preferences: preferencesSchema,
    status: USER_STATUS,
    role: USER_ROLE,
    emailVerified: z.boolean(),
    profileVisibility: z.enum(['public', 'private']),
    termsAcceptedAt: isoDateTime.nullable(),
    verifiedAt: isoDateTime.nullable(),
    suspendedAt: isoDateTime.nullable(),
    suspensionReason: z.string().nullable(),
    suspendedBy: z.string().nullable(),
    reactivatedAt: isoDateTime.nullable(),
    reactivatedBy: z.string().nullable(),
    lastLoginAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'User' });

const name = z.string().trim().min(1, 'required').max(100);

export const registerInput = z.strictObject({
  email: z.string().trim().max(254).pipe(z.email('must be a valid email address')),
  password: z.string().min(1).max(1024),
  firstName: name,
  lastName: name,
  organizationName: z.string().trim().max(200).optional(),
  acceptedTerms: z.boolean(),
});

export const verifyEmailInput = z.strictObject({ token: z.string().min(1).max(512) });
export const verifyEmailOutput = z.object({
  id: z.uuid(),
  email: z.string(),
  status: USER_STATUS,
  emailVerified: z.boolean(),
  message: z.string(),
});

export const resendVerificationInput = z.strictObject({ email: z.string().trim().max(254) });

export const outboxItem = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: isoDateTime,
});
