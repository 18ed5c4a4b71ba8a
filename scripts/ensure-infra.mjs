#!/usr/bin/env node
// The tests talk to a real PostgreSQL (127.0.0.1:5432, user postgres, trust) and a real NATS with
// JetStream (127.0.0.1:4222). Start them when installed but stopped; install them from Debian's
// packages when absent. Skipped when TEST_DATABASE_URL / TEST_NATS_URL point elsewhere. Debian's
// Chromium, for the console's browser tests, likewise.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';

const run = (command) => execSync(command, { stdio: 'inherit' });
const has = (binary) => {
  try {
    execSync(`command -v ${binary}`, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

function isListening(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function waitFor(port, name) {
  for (let i = 0; i < 60; i += 1) {
    if (await isListening(port)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${name} did not start listening on ${port}`);
}

let aptUpdated = false;
function aptInstall(pkg) {
  console.log(`agp: installing ${pkg} from Debian's packages …`);
  if (!aptUpdated) {
    run('apt-get update -qq');
    aptUpdated = true;
  }
  run(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`);
}

/** Local TCP connections as postgres without a password, as on the developers' machines. */
function trustLoopback(version) {
  const hba = `/etc/postgresql/${version}/main/pg_hba.conf`;
  const text = readFileSync(hba, 'utf8');
  if (!/^host\s+all\s+all\s+127\.0\.0\.1\/32\s+trust/m.test(text)) {
    writeFileSync(hba, `local all all trust\nhost all all 127.0.0.1/32 trust\n${text}`);
  }
}

async function ensurePostgres() {
  if (await isListening(5432)) {
    return;
  }
  if (!existsSync('/etc/postgresql') || readdirSync('/etc/postgresql').length === 0) {
    aptInstall('postgresql');
  }
  const version = readdirSync('/etc/postgresql').sort().at(-1);
  if (!existsSync(`/etc/postgresql/${version}/main`)) {
    run(`pg_createcluster ${version} main`);
  }
  trustLoopback(version);
  console.log(`agp: starting PostgreSQL ${version} …`);
  run(`pg_ctlcluster --skip-systemctl-redirect ${version} main start`);
  await waitFor(5432, 'PostgreSQL');
}

async function ensureNats() {
  if (await isListening(4222)) {
    return;
  }
  if (!has('nats-server') && !existsSync('/usr/sbin/nats-server')) {
    aptInstall('nats-server');
  }
  run('mkdir -p /var/lib/nats-server');
  console.log('agp: starting NATS with JetStream …');
  run(
    'start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- ' +
      '-a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log',
  );
  await waitFor(4222, 'NATS');
}

/**
 * The console's browser tests drive Debian's Chromium (issue 16): installed from Debian's
 * packages when absent, never a browser build downloaded by a test tool.
 */
function ensureChromium() {
  if (!existsSync(CHROMIUM)) {
    aptInstall('chromium');
  }
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!process.env.TEST_DATABASE_URL) {
  await ensurePostgres();
}
ensureChromium();
if (!process.env.TEST_NATS_URL) {
  await ensureNats();
}
