export type CampaignStatusRecord = {
  campaignId: string;
  computedUntil: number;
  processingStarted: number;
  status: 'PROCESSING' | 'SUCCESS' | 'FAILED' | 'SKIPPED';
  preComputeProcessingStarted: number;
  preComputeStatus: 'PROCESSING' | 'SUCCESS' | 'FAILED' | 'SKIPPED';
  delay: number;
  error?: string;
};
