import { emailMessage, notificationBody, slackText } from './notification-messages';

const body = notificationBody(
  {
    event: 'HITL_REQUEST_CREATED',
    link: 'https://agp.example.com/review/h-1',
    data: { hitlRequestId: 'h-1', protocol: 'MCP', policyIds: ['p-1', 'p-2'] },
  },
  { tenantId: 't-1', occurredAt: '2026-12-07T06:00:00.000Z' },
  'd-1',
);

describe('notificationBody', () => {
  it('should carry the delivery id, type, time, tenant and the data with its link', () => {
    expect(body).toEqual({
      id: 'd-1',
      type: 'HITL_REQUEST_CREATED',
      timestamp: '2026-12-07T06:00:00.000Z',
      tenantId: 't-1',
      data: {
        hitlRequestId: 'h-1',
        protocol: 'MCP',
        policyIds: ['p-1', 'p-2'],
        link: 'https://agp.example.com/review/h-1',
      },
    });
  });
});

describe('slackText', () => {
  it('should write the facts and the link in Slack mrkdwn', () => {
    const sut = slackText(body);

    expect(sut).toContain('*A message is held for human review*');
    expect(sut).toContain('• policyIds: `p-1, p-2`');
    expect(sut).toContain('<https://agp.example.com/review/h-1|Open it in the console>');
  });

  it('should escape Slack control characters in values', () => {
    const sut = slackText({ ...body, data: { hitlRequestId: '<!channel> & co' } });

    expect(sut).toContain('&lt;!channel&gt; &amp; co');
    expect(sut).not.toContain('<!channel>');
  });
});

describe('emailMessage', () => {
  it('should name the hold in the subject and give the link in text and HTML', () => {
    const sut = emailMessage(body);

    expect(sut.subject).toBe('A message is held for human review: h-1');
    expect(sut.text).toContain('Open it: https://agp.example.com/review/h-1');
    expect(sut.html).toContain('<a href="https://agp.example.com/review/h-1">');
  });

  it('should put the severity in the subject of an alert and escape HTML in values', () => {
    const sut = emailMessage({
      ...body,
      type: 'ALERT_RAISED',
      data: { alertId: 'a-1', severity: 'CRITICAL', detector: '<script>' },
    });

    expect(sut.subject).toBe('An alert was raised [CRITICAL]: a-1');
    expect(sut.html).toContain('&lt;script&gt;');
    expect(sut.html).not.toContain('<script>');
  });
});
