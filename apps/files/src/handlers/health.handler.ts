import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { FILES_PATTERNS, type HealthReply } from '@vault/contracts';
import { HealthService } from '../services/health.service';

@Controller()
export class HealthHandler {
  constructor(private readonly health: HealthService) {}

  @MessagePattern(FILES_PATTERNS.health)
  check(): Promise<HealthReply> {
    return this.health.check();
  }
}
