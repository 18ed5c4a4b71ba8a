import { BEYOND_SPECIFICATION_EXTENSION, markBeyondSpecification } from './beyond-specification';

describe(markBeyondSpecification.name, () => {
  it('should mark a nested enum that holds ADMIN_CHANGE and leave the specification enums alone', () => {
    const sut = {
      paths: {
        '/audit/v1/events': {
          get: {
            parameters: [
              {
                name: 'eventType',
                schema: { type: 'array', items: { enum: ['HITL', 'ADMIN_CHANGE'] } },
              },
              { name: 'action', schema: { enum: ['LOG', 'BLOCK'] } },
            ],
          },
        },
      },
    };

    markBeyondSpecification(sut);

    const [eventType, action] = sut.paths['/audit/v1/events'].get.parameters;
    const items = eventType.schema.items as Record<string, unknown>;
    expect(items[BEYOND_SPECIFICATION_EXTENSION]).toEqual({
      ADMIN_CHANGE: expect.stringContaining('D42'),
    });
    expect(items.description).toMatch(/^ADMIN_CHANGE: beyond the specification/);
    expect(action.schema).toEqual({ enum: ['LOG', 'BLOCK'] });
  });
});
