import { IsNotEmpty, IsString } from 'class-validator';
import { JobKind } from '@paykit/persistence';

export class ActivateCardJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  cardId!: string;
}

/** A card issued PENDING (sandbox issuance suffixes) becomes ACTIVE when this runs. */
export const ACTIVATE_CARD_JOB: JobKind<ActivateCardJob> = { name: 'cards.card.activate', payload: ActivateCardJob };
