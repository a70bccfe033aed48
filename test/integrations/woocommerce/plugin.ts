// The WooCommerce plugin run by php-cli against stand-ins of the WordPress functions it calls
// (render.php, wordpress-stand-ins.php): what it prints for a scenario of settings and products.
// Shared by the plugin's tests and the browser tests that load its markup (cdn-csp.test.ts).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { programPath } from '../../../scripts/prerequisites.js';
import { run, type PhpResult } from '../wordpress/site.js';

export const pluginDir = fileURLToPath(new URL('../../../integrations/woocommerce/tryon-button/', import.meta.url));
export const pluginMain = join(pluginDir, 'tryon-button.php');
export const runner = fileURLToPath(new URL('./render.php', import.meta.url));
export const standIns = fileURLToPath(new URL('./wordpress-stand-ins.php', import.meta.url));

export function php(args: string[], input?: string): Promise<PhpResult> {
  // Throws at once, saying what to install, when php-cli is missing (`npm test` installs it).
  return run(programPath('php'), args, { input, timeoutMs: 20_000 });
}

export interface Scenario {
  options?: Record<string, unknown>;
  meta?: Record<number, Record<string, string>>;
  locale?: string;
  products?: { id: number; slug: string }[];
  shortcodes?: { atts: Record<string, string> | string; current?: { id: number; slug: string } }[];
  save?: { id: number; post: Record<string, string> };
}

export interface Rendered {
  products: string[];
  shortcodes: string[];
  productFields: string;
  footer: string;
  classicTag: string;
  otherTag: string;
  doingItWrong: string[];
  /** What the plugin gave wp_add_privacy_policy_content on admin_init. */
  privacyPolicy: { plugin: string; text: string }[];
  savedMeta?: Record<string, string>;
}

export async function render(scenario: Scenario): Promise<Rendered> {
  const { code, stdout, stderr } = await php(
    ['-d', 'display_errors=stderr', '-d', 'error_reporting=-1', runner, pluginMain],
    JSON.stringify(scenario),
  );
  assert.equal(stderr, '', 'no PHP notice, warning or error');
  assert.equal(code, 0, stdout);
  return JSON.parse(stdout) as Rendered;
}
