import { z } from 'zod';
import { booleanSetting, parseOrigin, parseSettings } from './settings.ts';

/** Where the S3 driver keeps files and how it signs in (README, "Settings"). */
export interface S3Settings {
  bucket: string;
  region: string;
  /** Unset: AWS's own endpoint for `region`. */
  endpoint: string | undefined;
  /** Unset: the AWS SDK's default chain (AWS_* variables, shared profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`. */
  forcePathStyle: boolean;
}

const text = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

/** S3's naming rules for general purpose buckets, which also keep a name usable as a host name. */
const bucketSetting = text.superRefine((bucket, context) => {
  if (bucket === undefined) return;
  const wellFormed =
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) &&
    !bucket.includes('..') &&
    !/^\d{1,3}(\.\d{1,3}){3}$/.test(bucket);
  if (!wellFormed) {
    context.addIssue({
      code: 'custom',
      message: `must be a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens, not "${bucket}"`,
    });
  }
});

const regionSetting = (fallback: string) =>
  text.transform((region, context) => {
    if (region === undefined) return fallback;
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(region)) {
      context.addIssue({
        code: 'custom',
        message: `must be a region name such as us-east-1, not "${region}"`,
      });
      return z.NEVER;
    }
    return region;
  });

const endpointSetting = text.transform((endpoint, context) => {
  if (endpoint === undefined) return undefined;
  const origin = parseOrigin(endpoint);
  if (origin === undefined) {
    context.addIssue({
      code: 'custom',
      message: `must be an http or https origin such as https://s3.example.com, not "${endpoint}"`,
    });
    return z.NEVER;
  }
  return origin;
});

const s3SettingsSchema = z
  .object({
    S3_BUCKET: bucketSetting,
    S3_REGION: regionSetting('us-east-1'),
    S3_ENDPOINT: endpointSetting,
    S3_ACCESS_KEY_ID: text,
    S3_SECRET_ACCESS_KEY: text,
    S3_FORCE_PATH_STYLE: booleanSetting(false),
  })
  .superRefine((settings, context) => {
    const { S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = settings;
    if (S3_ACCESS_KEY_ID !== undefined && S3_SECRET_ACCESS_KEY === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['S3_SECRET_ACCESS_KEY'],
        message: 'must be set when S3_ACCESS_KEY_ID is',
      });
    }
    if (S3_SECRET_ACCESS_KEY !== undefined && S3_ACCESS_KEY_ID === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['S3_ACCESS_KEY_ID'],
        message: 'must be set when S3_SECRET_ACCESS_KEY is',
      });
    }
    const orphans = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter(
      (name) => settings[name] !== undefined,
    );
    if (S3_BUCKET === undefined && orphans.length > 0) {
      context.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: `must be set to store files in S3 (${orphans.join(', ')} is set)`,
      });
    }
  });

/**
 * The S3 settings of `environment`, or undefined when `S3_BUCKET` is unset (files then stay on
 * local disk). A bad value throws a ConfigurationError naming the variable; secrets are never
 * repeated in it.
 */
export function readS3Settings(
  environment: Record<string, string | undefined>,
): S3Settings | undefined {
  const settings = parseSettings(s3SettingsSchema, environment);
  if (settings.S3_BUCKET === undefined) return undefined;
  return {
    bucket: settings.S3_BUCKET,
    region: settings.S3_REGION,
    endpoint: settings.S3_ENDPOINT,
    credentials:
      settings.S3_ACCESS_KEY_ID !== undefined && settings.S3_SECRET_ACCESS_KEY !== undefined
        ? {
            accessKeyId: settings.S3_ACCESS_KEY_ID,
            secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
          }
        : undefined,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
  };
}

/**
 * The origin browsers send files to and fetch them from (the page's Content-Security-Policy must
 * allow it): the bucket's own host, or the endpoint itself when addresses are path-style.
 */
export function s3BrowserOrigin(settings: S3Settings): string {
  const endpoint = new URL(settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`);
  if (!settings.forcePathStyle) endpoint.hostname = `${settings.bucket}.${endpoint.hostname}`;
  return endpoint.origin;
}
