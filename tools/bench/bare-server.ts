/** The reference point of the benchmark: a bare NestJS route on Fastify returning a constant. */
import 'reflect-metadata';
import { Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';

@Controller()
class ConstantController {
  @Get('constant')
  get(): { ok: boolean } {
    return { ok: true };
  }

  @Post('constant')
  post(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({ controllers: [ConstantController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(BareModule, new FastifyAdapter(), { logger: false });
  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`listening ${JSON.stringify(app.getHttpServer().address())}\n`);
}

void main();
