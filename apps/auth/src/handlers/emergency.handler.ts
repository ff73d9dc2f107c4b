import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AUTH_PATTERNS, verifyEmergencyBodySchema } from '@vault/contracts';
import { readBody, readContext } from '@vault/server-kit';
import { EmergencyService } from '../services/emergency.service';
import type { LoginResult } from '../services/auth.service';

@Controller()
export class EmergencyHandler {
  constructor(private readonly emergency: EmergencyService) {}

  @MessagePattern(AUTH_PATTERNS.verifyEmergency)
  verifyEmergency(@Payload() payload: unknown): Promise<LoginResult> {
    return this.emergency.verify(readBody(verifyEmergencyBodySchema, payload), readContext(payload));
  }
}
