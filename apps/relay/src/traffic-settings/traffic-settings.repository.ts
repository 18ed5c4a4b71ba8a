import { Injectable } from '@nestjs/common';
import { Row, Tx } from '@agp/database';

import { TrafficSettings, trafficSettingsOf } from './traffic-settings.types';

/** The tenant's row of `relay.traffic_settings` (D36, D40, D34). */
@Injectable()
export class TrafficSettingsRepository {
  async ensure(tx: Tx, tenantId: string): Promise<void> {
    await tx.query(
      `INSERT INTO relay.traffic_settings (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO NOTHING`,
      [tenantId],
    );
  }

  async read(tx: Tx, tenantId: string, forUpdate = false): Promise<TrafficSettings> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM relay.traffic_settings WHERE tenant_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [tenantId],
    );
    return trafficSettingsOf(rows[0]);
  }

  async write(tx: Tx, tenantId: string, settings: TrafficSettings): Promise<void> {
    await tx.query(
      `INSERT INTO relay.traffic_settings (tenant_id, tenant_per_minute, agent_per_minute,
         subscription_per_minute, content_capture, hitl_wait_seconds, hitl_expiry_seconds,
         durability, shadow_sample_rate, allowed_origins, tool_drift, ai_disclosure,
         ai_disclosure_text, content_marking, payment_review_threshold)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (tenant_id) DO UPDATE SET tenant_per_minute = $2, agent_per_minute = $3,
         subscription_per_minute = $4, content_capture = $5, hitl_wait_seconds = $6,
         hitl_expiry_seconds = $7, durability = $8, shadow_sample_rate = $9, allowed_origins = $10,
         tool_drift = $11, ai_disclosure = $12, ai_disclosure_text = $13,
         content_marking = $14, payment_review_threshold = $15, updated_at = now()`,
      [
        tenantId,
        settings.tenantPerMinute,
        settings.agentPerMinute,
        settings.subscriptionPerMinute,
        settings.contentCapture,
        settings.hitlWaitSeconds,
        settings.hitlExpirySeconds,
        settings.durability,
        settings.shadowSampleRate,
        settings.allowedOrigins,
        settings.toolDrift,
        settings.aiDisclosure,
        settings.aiDisclosureText,
        settings.contentMarking,
        settings.paymentReviewThreshold,
      ],
    );
  }
}
