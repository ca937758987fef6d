import { describe, expect, it } from 'vitest';
import { installPlan } from './system-packages.mjs';

const machine = {
  hasChromium: false,
  hasPostgres: false,
  hasAptGet: true,
  isRoot: false,
  hasPasswordlessSudo: false,
};

describe('installPlan', () => {
  it('installs nothing on a machine that has Chromium and PostgreSQL', () => {
    expect(installPlan({ ...machine, hasChromium: true, hasPostgres: true })).toEqual({
      packages: [],
    });
  });

  it('installs what is missing as root, after updating the package lists', () => {
    expect(installPlan({ ...machine, hasPostgres: true, isRoot: true })).toEqual({
      packages: ['chromium'],
      commands: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', 'chromium'],
      ],
    });
  });

  it('installs through sudo when it asks for no password', () => {
    const plan = installPlan({ ...machine, hasPasswordlessSudo: true });
    expect(plan.commands?.at(-1)).toEqual([
      'sudo',
      '-n',
      'apt-get',
      'install',
      '-y',
      '-qq',
      'chromium',
      'postgresql',
    ]);
  });

  it('gives the one command to run when it may not install', () => {
    expect(installPlan(machine)).toEqual({
      packages: ['chromium', 'postgresql'],
      instead: 'sudo apt-get install chromium postgresql',
    });
  });

  it('names the packages without a command where the distribution has no apt-get', () => {
    expect(installPlan({ ...machine, hasAptGet: false, isRoot: true }).instead).toBe(
      "install chromium and postgresql with the system's package manager",
    );
  });
});
