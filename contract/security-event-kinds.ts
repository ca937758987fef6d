/**
 * What a member's Activity page may list (GET /users/events): the API records
 * these kinds, and the portal has a sentence for each.
 */
export const SECURITY_EVENT_KINDS = [
  'signed_in',
  'sign_in_failed',
  'locked',
  'unlocked',
  'password_changed',
  'password_reset',
  'email_verified',
  'email_change_requested',
  'email_changed',
  'two_step_enabled',
  'two_step_phone_changed',
  'two_step_disabled',
  'two_step_codes_paused',
  'authenticator_app_added',
  'authenticator_app_removed',
  'two_step_phone_removed',
  'recovery_codes_renewed',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'device_remembered',
  'remembered_device_forgotten',
  'session_ended',
  'other_sessions_ended',
  'signed_out',
  'company_sign_in',
  'company_sign_in_linked',
  'all_sessions_ended',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];
