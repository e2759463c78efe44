import { documentReview } from './documents.sandbox';

describe(documentReview.name, () => {
  it.each([
    ['id001.pdf', { status: 'PENDING' }],
    ['id002.pdf', { status: 'REJECTED', rejectionReason: 'LOW_QUALITY' }],
    ['id003.png', { status: 'REJECTED', rejectionReason: 'DATA_MISMATCH' }],
    ['id004.jpg', { status: 'REJECTED', rejectionReason: 'EXPIRED' }],
    ['id005', { status: 'REJECTED', rejectionReason: 'SUSPECTED_FRAUD' }],
    ['id006.pdf', { status: 'REJECTED', rejectionReason: 'UNSUITABLE_DOCUMENT' }],
    ['id007.pdf', { status: 'REJECTED', rejectionReason: 'INCOMPLETE' }],
    ['passport.pdf', { status: 'APPROVED' }],
  ])('%s', (fileName, review) => expect(documentReview(fileName)).toEqual(review));
});
