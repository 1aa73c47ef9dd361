/** Settings the domain logic needs; apps/server/src/env.ts builds this from the environment. */
export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  requireUppercase: boolean;
  requireLowercase: boolean;
  requireNumbers: boolean;
  requireSpecialChars: boolean;
}

export interface CoreConfig {
  appUrl: string;
  passwordPolicy: PasswordPolicy;
  sessionTtlMs: number;
  verificationTokenTtlMs: number;
  emailVerificationRequired: boolean;
  adminEmails: string[];
  siweChainIds: number[];
  /** optional JSON-RPC URL to verify ERC-1271 smart-contract wallet signatures */
  siweRpcUrl?: string | undefined;
  mailFrom: string;
  users: {
    allowPublicProfiles: boolean;
    enableProfilePictures: boolean;
    enableBio: boolean;
    enableSocialLinks: boolean;
    maxBioLength: number;
    maxAvatarSize: number;
    allowedImageTypes: string[];
    uploadPath: string;
  };
  governance: {
    daoApprovalRequired: boolean;
  };
}

export const defaultPasswordPolicy: PasswordPolicy = {
  minLength: 8,
  maxLength: 128,
  requireUppercase: true,
  requireLowercase: true,
  requireNumbers: true,
  requireSpecialChars: false,
};
