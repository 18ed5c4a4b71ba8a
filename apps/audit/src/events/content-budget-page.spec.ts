import { MAX_PAGE_CONTENT_CHARS, contentBudgetPage } from './content-budget-page';

const hop = (id: string, chars = 0) => ({
  id,
  occurredAt: `2026-12-07T00:00:0${id}.000Z`,
  ...(chars ? { content: 'x'.repeat(chars) } : {}),
});

describe(contentBudgetPage.name, () => {
  it('should end a full page with the cursor after its last hop, and a short one without', () => {
    expect(contentBudgetPage([hop('1'), hop('2')], 2).next).toEqual({
      afterAt: '2026-12-07T00:00:02.000Z',
      afterId: '2',
    });
    expect(contentBudgetPage([hop('1')], 2).next).toBeUndefined();
  });

  it('should stop the page where the content would pass the budget', () => {
    const half = MAX_PAGE_CONTENT_CHARS / 2 + 1;
    const page = contentBudgetPage([hop('1', half), hop('2', half), hop('3')], 10);

    expect(page.hops.map((h) => h.id)).toEqual(['1']);
    expect(page.next).toMatchObject({ afterId: '1' });
  });

  it('should keep a hop too big alone as its digest only', () => {
    const page = contentBudgetPage([hop('1', MAX_PAGE_CONTENT_CHARS + 1), hop('2', 5)], 10);

    expect(page.hops).toEqual([{ id: '1', occurredAt: '2026-12-07T00:00:01.000Z' }, hop('2', 5)]);
    expect(page.next).toBeUndefined();
  });
});
