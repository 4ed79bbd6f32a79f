// End-to-end test of the gamequiv web UI in a real browser.
//
// It starts the real server binary on 127.0.0.1 (a free port) with a
// temporary data directory, drives Debian's chromium through
// playwright-core, submits ticTacToe against sum15 through the form,
// waits for the verdict on the comparison page (which htmx refreshes in
// place), reads the mapping, and browses the classes and a game.
//
// Run from the repository root, after `npm ci` in web/e2e:
//
//   node --test web/e2e/
//
// Environment:
//   GAMEQUIV_SERVER_BIN  the server binary; default: go build ./cmd/server
//   CHROMIUM             the browser; default /usr/bin/chromium
//   GAMEQUIV_GAMES       the game corpus (ggp-base/, ggp-base-repo/);
//                        default: shared/games in an ancestor directory
//   GAMEQUIV_E2E_ARTIFACTS  if set, a directory for screenshots
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

// The launch flags of ECOSYSTEM.md 8b: no sandbox (root in CI), no GPU,
// and no background connections (the network is closed).
const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function findCorpus() {
  if (process.env.GAMEQUIV_GAMES) return process.env.GAMEQUIV_GAMES;
  for (let d = root; ; d = path.dirname(d)) {
    const c = path.join(d, 'shared', 'games');
    if (existsSync(path.join(c, 'ggp-base'))) return c;
    if (path.dirname(d) === d) return null;
  }
}

const corpus = findCorpus();
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const skip = !corpus ? 'game corpus not found (set GAMEQUIV_GAMES)'
  : !existsSync(chromiumPath) ? `no browser at ${chromiumPath} (apt-get install chromium, or set CHROMIUM)`
    : false;
if (skip) console.log(`SKIP web e2e: ${skip}`);

const tttPath = corpus && path.join(corpus, 'ggp-base-repo', 'ticTacToe.kif');
const sum15Path = corpus && path.join(corpus, 'ggp-base', 'sum15.kif');

let tmp, server, serverLog = '', base, browser;

// startServer starts the binary on a free port and resolves with its
// address, read from the "listening" log line.
function startServer(bin, dataDir) {
  return new Promise((resolve, reject) => {
    server = spawn(bin, ['--addr', '127.0.0.1:0', '--data', dataDir, '--workers', '2', '--rate-limit', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, GAMEQUIV_DATABASE_URL: '' },
    });
    const timer = setTimeout(() => reject(new Error(`server did not start in 60s:\n${serverLog}`)), 60_000);
    let pending = '';
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (chunk) => {
      serverLog += chunk;
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        try {
          const rec = JSON.parse(line);
          if (rec.msg === 'listening' && rec.addr) {
            clearTimeout(timer);
            resolve(`http://${rec.addr}`);
          }
        } catch { /* not a JSON line */ }
      }
    });
    server.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${serverLog}`));
    });
  });
}

before(async () => {
  if (skip) return;
  tmp = mkdtempSync(path.join(tmpdir(), 'gamequiv-e2e-'));
  let bin = process.env.GAMEQUIV_SERVER_BIN;
  if (!bin) {
    bin = path.join(tmp, 'server');
    execFileSync('go', ['build', '-o', bin, './cmd/server'], { cwd: root, stdio: 'inherit' });
  }
  base = await startServer(bin, path.join(tmp, 'data'));
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    let timer;
    await Promise.race([exited, new Promise((r) => { timer = setTimeout(r, 20_000); })]);
    clearTimeout(timer);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// newPage opens a page that records console errors and failed scripts
// (a Content-Security-Policy violation shows up there).
async function newPage() {
  const page = await browser.newPage();
  page.problems = [];
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.setDefaultTimeout(30_000);
  return page;
}

async function screenshot(page, name) {
  const dir = process.env.GAMEQUIV_E2E_ARTIFACTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

// checkAccessible asserts a few basics: one h1, a language, and a label
// for every visible form control.
async function checkAccessible(page) {
  const facts = await page.evaluate(() => ({
    h1: document.querySelectorAll('h1').length,
    lang: document.documentElement.lang,
    unlabelled: [...document.querySelectorAll('input, select, textarea')]
      .filter((el) => el.type !== 'hidden' && el.labels.length === 0 && !el.getAttribute('aria-label'))
      .map((el) => el.name || el.id),
  }));
  assert.equal(facts.h1, 1, 'one h1 per page');
  assert.equal(facts.lang, 'en');
  assert.deepEqual(facts.unlabelled, [], 'form controls without a label');
}

test('submit ticTacToe against sum15 through the form and see the mapping', { skip, timeout: 180_000 }, async () => {
  const page = await newPage();
  try {
    await page.goto(`${base}/`);
    await checkAccessible(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Compare two games' }).click();
    await page.waitForURL(`${base}/comparisons/new`);
    await checkAccessible(page);

    // Game A pasted, game B uploaded as a file.
    await page.locator('#a-name').fill('ticTacToe');
    await page.locator('#a-gdl').fill(readFileSync(tttPath, 'utf8'));
    await page.locator('#b-file').setInputFiles(sum15Path);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/\/comparisons\/\d+$/);
    await checkAccessible(page);
    // A marker that survives only if the page is updated in place.
    await page.evaluate(() => { window.e2eMarker = 'kept'; });

    await assert.doesNotReject(page.locator('#verdict').getByText('equivalent', { exact: true }).waitFor({ timeout: 120_000 }));
    assert.equal(await page.evaluate(() => window.e2eMarker), 'kept', 'the page was reloaded instead of updated by htmx');
    assert.match(await page.locator('.status').first().innerText(), /done/);
    assert.match(await page.locator('p.games').innerText(), /ticTacToe .*sum15/s);

    const mapping = page.locator('section[aria-labelledby="mapping-heading"]');
    await mapping.waitFor();
    const roles = await mapping.locator('table.mapping').first().locator('tbody tr').allInnerTexts();
    assert.deepEqual(roles.map((r) => r.split('\t').map((s) => s.trim())).sort(),
      [['oplayer', 'black'], ['xplayer', 'white']]);
    assert.match(await mapping.innerText(), /29 propositions/);
    assert.match(await mapping.innerText(), /\(mark 1 1\)/);
    assert.match(await mapping.innerText(), /\(take \d\)/);
    await screenshot(page, 'comparison');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.close();
  }
});

test('browse the classes, a class and a game', { skip, timeout: 120_000 }, async () => {
  const page = await newPage();
  try {
    // The classifier merges the two games after the equivalent verdict,
    // in the background: wait for the class with both.
    const deadline = Date.now() + 60_000;
    let row;
    for (;;) {
      await page.goto(`${base}/classes`);
      row = page.locator('tbody tr').filter({ hasText: 'ticTacToe' }).filter({ hasText: 'sum15' });
      if (await row.count() === 1) break;
      assert.ok(Date.now() < deadline, `no class with both games:\n${await page.locator('main').innerText()}`);
      await page.waitForTimeout(500);
    }
    await checkAccessible(page);
    assert.equal((await row.locator('td.num').innerText()).trim(), '2');
    await screenshot(page, 'classes');

    await row.getByRole('link', { name: /^Class \d+$/ }).click();
    await page.waitForURL(/\/classes\/\d+$/);
    assert.match(await page.locator('main').innerText(), /2 games/);
    await page.getByRole('link', { name: 'ticTacToe' }).click();
    await page.waitForURL(/\/games\/\d+$/);
    await checkAccessible(page);
    const main = await page.locator('main').innerText();
    assert.match(main, /Roles\s+xplayer, oplayer/);
    assert.match(main, /Propositions\s+29/);
    assert.match(main, /Class \d+/);

    // Symmetries, computed on demand and swapped in by htmx.
    await page.getByRole('link', { name: 'Compute the symmetries' }).click();
    await page.locator('#symmetries').getByText('8 (the identity included)').waitFor({ timeout: 60_000 });
    await screenshot(page, 'game');

    const res = await page.goto(`${base}/games/99999`);
    assert.equal(res.status(), 404);
    assert.equal(await page.locator('h1').innerText(), 'Not Found');
    assert.deepEqual(page.problems.filter((p) => !p.includes('404')), []);
  } finally {
    await page.close();
  }
});
