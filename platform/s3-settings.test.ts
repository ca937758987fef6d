import { describe, expect, it } from 'vitest';
import { ConfigurationError } from './settings.ts';
import { readS3Settings } from './s3-settings.ts';

describe('readS3Settings', () => {
  it('leaves S3 off while S3_BUCKET is unset or empty', () => {
    expect(readS3Settings({})).toBeUndefined();
    expect(readS3Settings({ S3_BUCKET: ' ', S3_REGION: 'eu-west-3' })).toBeUndefined();
  });

  it('gives AWS in us-east-1 with the SDK’s own credentials by default', () => {
    expect(readS3Settings({ S3_BUCKET: 'portal-files' })).toEqual({
      bucket: 'portal-files',
      region: 'us-east-1',
      endpoint: undefined,
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  it('reads an S3-compatible store with its keys and path-style addresses', () => {
    expect(
      readS3Settings({
        S3_BUCKET: 'portal-files',
        S3_REGION: 'auto',
        S3_ENDPOINT: 'https://storage.example.com/',
        S3_ACCESS_KEY_ID: 'portal',
        S3_SECRET_ACCESS_KEY: ' s3cr3t/with+symbols ',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    ).toEqual({
      bucket: 'portal-files',
      region: 'auto',
      endpoint: 'https://storage.example.com',
      credentials: { accessKeyId: 'portal', secretAccessKey: 's3cr3t/with+symbols' },
      forcePathStyle: true,
    });
  });

  it.each([
    [{ S3_BUCKET: 'Portal_Files' }, 'S3_BUCKET must be a bucket name of 3 to 63 lowercase'],
    [{ S3_BUCKET: 'ab' }, 'S3_BUCKET must be a bucket name'],
    [{ S3_BUCKET: '192.168.1.20' }, 'S3_BUCKET must be a bucket name'],
    [{ S3_BUCKET: 'files', S3_REGION: 'EU West' }, 'S3_REGION must be a region name such as'],
    [
      { S3_BUCKET: 'files', S3_ENDPOINT: 'storage.example.com' },
      'S3_ENDPOINT must be an http or https origin such as https://s3.example.com, not "storage.example.com"',
    ],
    [{ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE must be true or'],
    [
      { S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'portal' },
      'S3_SECRET_ACCESS_KEY must be set when S3_ACCESS_KEY_ID is',
    ],
    [
      { S3_ENDPOINT: 'http://127.0.0.1:9000' },
      'S3_BUCKET must be set to store files in S3 (S3_ENDPOINT is set)',
    ],
  ])('refuses %o with a message naming the variable', (environment, message) => {
    expect(() => readS3Settings(environment)).toThrow(ConfigurationError);
    expect(() => readS3Settings(environment)).toThrow(message);
  });

  it('never repeats the secret key in a message', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG';
    expect(() => readS3Settings({ S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: secret })).toThrow(
      'Invalid configuration: S3_ACCESS_KEY_ID must be set when S3_SECRET_ACCESS_KEY is.',
    );
  });
});
