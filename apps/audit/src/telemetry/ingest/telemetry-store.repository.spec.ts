import { copyTextFields } from '../../integrity/copy-text';
import { Column } from './telemetry-columns';
import { ExportTooLarge, copyData } from './telemetry-store.repository';

interface Item {
  id: string;
  name: string | null;
  attributes: object | null;
}

const COLUMNS: Array<Column<Item>> = [
  { name: 'tenant_id', type: 'uuid', value: (_i, s) => s.tenantId, isPlain: true },
  { name: 'id', type: 'text', value: (i) => i.id, isPlain: true },
  { name: 'name', type: 'text', value: (i) => i.name },
  { name: 'attributes', type: 'jsonb', value: (i) => i.attributes },
];
const SENDER = { tenantId: '5f0c7a52-8a0e-4d0c-9a53-0b3c2f4e1d10', kind: 'AGENT', id: 'a' };

describe(copyData.name, () => {
  it('should write each item as one line of COPY text, escaped and in UTF-8, past its first estimate', () => {
    const shared = { 'service.name': 'agent' };
    const items: Item[] = [
      { id: '1', name: 'tab\there\nnew\\line', attributes: shared },
      { id: '2', name: 'é ✓ 𝄞', attributes: { big: 'x'.repeat(5_000), quote: '"\t' } },
      { id: '3', name: null, attributes: shared },
    ];

    const sut = copyData(COLUMNS, items, SENDER, '2026-12-07T00:00:00.000Z');

    const lines = sut.toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map(copyTextFields)).toEqual(
      items.map((i) => [SENDER.tenantId, i.id, i.name, JSON.stringify(i.attributes)]),
    );
  });

  it('should refuse an export whose rows repeat a large resource past the limit, before building it', () => {
    const resource = { big: 'x'.repeat(64 * 1024) };
    const items: Item[] = Array.from({ length: 17 }, (_, i) => ({
      id: String(i),
      name: null,
      attributes: resource,
    }));

    expect(() => copyData(COLUMNS, items, SENDER, '2026-12-07T00:00:00.000Z', 1024 * 1024)).toThrow(
      ExportTooLarge,
    );
  });
});
