// What `npm test` needs from the machine besides Node: Debian's Chromium for the browser tests
// and its PostgreSQL for the PostgreSQL tests. Like Playwright's `install-deps`, the test command
// installs them from the distribution's packages when it may (as root, or with sudo that asks for
// no password), saying what it installs; otherwise it prints the one command to run.
import { spawnSync } from 'node:child_process';

/**
 * @typedef {object} Machine
 * @property {boolean} hasChromium the Chromium the tests drive is there
 * @property {boolean} hasPostgres a packaged PostgreSQL is there, or TEST_DATABASE_URL names one
 * @property {boolean} hasAptGet the distribution's package tool is there
 * @property {boolean} isRoot this process runs as root
 * @property {boolean} hasPasswordlessSudo `sudo -n true` succeeds
 */

/**
 * The packages to install and the commands that install them, or the one command a person runs.
 * @param {Machine} machine
 * @returns {{ packages: string[], commands?: string[][], instead?: string }}
 */
export function installPlan(machine) {
  const packages = [
    ...(machine.hasChromium ? [] : ['chromium']),
    ...(machine.hasPostgres ? [] : ['postgresql']),
  ];
  if (packages.length === 0) return { packages };
  const may = machine.hasAptGet && (machine.isRoot || machine.hasPasswordlessSudo);
  if (!may) {
    const instead = machine.hasAptGet
      ? `sudo apt-get install ${packages.join(' ')}`
      : `install ${packages.join(' and ')} with the system's package manager`;
    return { packages, instead };
  }
  const asAdmin = machine.isRoot ? [] : ['sudo', '-n'];
  return {
    packages,
    commands: [
      [...asAdmin, 'apt-get', 'update', '-qq'],
      [...asAdmin, 'apt-get', 'install', '-y', '-qq', ...packages],
    ],
  };
}

/** Whether `command` runs and exits 0 (without a shell, with no output). */
const succeeds = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/**
 * This machine, as {@link installPlan} reads it.
 * @param {{ hasChromium: boolean, hasPostgres: boolean }} found
 * @returns {Machine}
 */
export function thisMachine({ hasChromium, hasPostgres }) {
  const isRoot = process.getuid?.() === 0;
  return {
    hasChromium,
    hasPostgres,
    hasAptGet: succeeds('apt-get', ['--version']),
    isRoot,
    hasPasswordlessSudo: !isRoot && succeeds('sudo', ['-n', 'true']),
  };
}

/**
 * Carries out the plan, saying what it installs; returns false, after printing the one command
 * to run, when it may not install or the install fails.
 * @param {ReturnType<typeof installPlan>} plan
 */
export function installMissing(plan) {
  if (plan.packages.length === 0) return true;
  const what = plan.packages.join(' and ');
  const byHand = plan.instead ?? `sudo apt-get install ${plan.packages.join(' ')}`;
  if (plan.commands) {
    console.log(`\nThe tests need ${what}: installing from the distribution's packages.`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const installed = plan.commands.every(([command = '', ...args]) => {
      console.log(`$ ${[command, ...args].join(' ')}`);
      return spawnSync(command, args, { stdio: 'inherit', env }).status === 0;
    });
    if (installed) return true;
  }
  console.error(
    `\nThe tests need ${what}, which ${plan.commands ? 'could not be installed' : 'this user may not install'}. ` +
      `Run:\n\n  ${byHand}\n\nthen npm test again (or set CHROMIUM_PATH, TEST_DATABASE_URL to yours).`,
  );
  return false;
}
