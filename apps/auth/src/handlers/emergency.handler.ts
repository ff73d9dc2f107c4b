import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AUTH_PATTERNS } from '@vault/contracts';
import { readContext, readRpcBody } from '@vault/server-kit';
import { EmergencyService } from '../services/emergency.service';
import type { LoginResult } from '../services/auth.service';

@Controller()
export class EmergencyHandler {
  constructor(private readonly emergency: EmergencyService) {}

  @MessagePattern(AUTH_PATTERNS.verifyEmergency)
  verifyEmergency(@Payload() payload: unknown): Promise<LoginResult> {
    return this.emergency.verify(readRpcBody(AUTH_PATTERNS.verifyEmergency, payload), readContext(payload));
  }
}
