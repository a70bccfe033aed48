// The fidelity check on the labelled set (fidelity-labelled.ts: the sandbox's renders of every
// demo product variant, faithful in every view and with each drawn failure at several strengths):
// the detection rate per failure and strength and the false-alarm rate on faithful renders,
// printed, and held to the goals (docs/fidelity.md).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { checkFidelity, DIFFERS_ABOVE } from '../../proxy/fidelity/check.js';
import { labelledSet } from './fidelity-labelled.js';
import type { LabelledRender } from './fidelity-labelled.js';

interface Judged {
  render: LabelledRender;
  caught: boolean;
  deltaE: number;
  coverage: string;
}

describe('the fidelity check on the labelled set', () => {
  const judged: Judged[] = [];

  before(async () => {
    const cpu = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    };
    const c0 = cpu();
    const set = await labelledSet();
    const c1 = cpu();
    for (const garment of set) {
      for (const render of garment.renders) {
        const fidelity = await checkFidelity({
          garment: garment.garment,
          category: garment.category,
          views: [{ view: render.view, bytes: render.bytes, contentType: 'image/jpeg' }],
          expectedViews: [render.view],
        });
        assert.notEqual(
          fidelity.verdict,
          'unchecked',
          `${render.product}/${render.variant} ${render.view}: ${fidelity.reason}`,
        );
        judged.push({
          render,
          caught: fidelity.verdict === 'differs',
          deltaE: fidelity.views[0]!.colour.deltaE,
          coverage: fidelity.views[0]!.coverage,
        });
      }
    }
    const groups = new Map<string, Judged[]>();
    for (const one of judged) {
      const key = one.render.label + (one.render.deltaE === undefined ? '' : ` ΔE ${one.render.deltaE}`);
      groups.set(key, [...(groups.get(key) ?? []), one]);
    }
    const lines = [...groups].map(([key, list]) => {
      const caught = list.filter((j) => j.caught).length;
      const rate = ((100 * caught) / list.length).toFixed(1);
      const short = list.filter((j) => j.coverage !== 'ok').length;
      const deltas = list.map((j) => j.deltaE).sort((x, y) => x - y);
      return `${key.padEnd(22)} ${String(list.length).padStart(3)} renders  ${key === 'faithful' ? 'false alarms' : 'caught'} ${caught} (${rate} %)  ΔE ${deltas[0]}–${deltas.at(-1)}, median ${deltas[deltas.length >> 1]}  coverage not ok ${short}`;
    });
    const cost = `${(c1 - c0).toFixed(1)} s of CPU rendering, ${(cpu() - c1).toFixed(1)} s checking`;
    console.log(
      `labelled set: ${judged.length} renders (${cost}), differs above ΔE ${DIFFERS_ABOVE}\n${lines.join('\n')}`,
    );
  });

  const of = (label: string, least = 0) =>
    judged.filter((j) => j.render.label === label && (j.render.deltaE ?? 0) >= least);
  const missed = (list: Judged[]) =>
    list.filter((j) => !j.caught).map((j) => `${j.render.product}/${j.render.variant} ${j.render.view} ΔE ${j.deltaE}`);

  it('holds at least 200 renders across the demo products, every view and every failure', () => {
    assert.ok(judged.length >= 200, `${judged.length} renders`);
    for (const label of ['faithful', 'colour_drift', 'wrong_variant', 'garment_missing', 'half_drawn'])
      assert.ok(of(label).length >= 16, label);
    assert.equal(new Set(judged.map((j) => j.render.view)).size, 4);
  });

  it('catches every wrong variant', () => {
    assert.deepEqual(missed(of('wrong_variant')), []);
  });

  it('catches at least 95 % of colour drifts of ΔE 10 or more', () => {
    const drifts = of('colour_drift', 10);
    const caught = drifts.filter((j) => j.caught).length;
    assert.ok(
      caught / drifts.length >= 0.95,
      `caught ${caught} of ${drifts.length}; missed ${missed(drifts).join(', ')}`,
    );
  });

  it('catches every missing garment', () => {
    assert.deepEqual(missed(of('garment_missing')), []);
  });

  it('raises at most 2 % false alarms on faithful renders', () => {
    const faithful = of('faithful');
    const alarms = faithful.filter((j) => j.caught);
    assert.ok(
      alarms.length / faithful.length <= 0.02,
      alarms.map((j) => `${j.render.product}/${j.render.variant} ${j.render.view} ΔE ${j.deltaE}`).join(', '),
    );
  });
});
