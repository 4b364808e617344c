package api

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// queue bounds the compiles that run at once, and those that wait for a
// turn: past both, a request is refused at once with ResourceExhausted,
// so a burst costs the server a bounded amount of memory and a client
// learns to back off rather than wait without end.
type queue struct {
	slots      chan struct{} // one per running compile
	mu         sync.Mutex
	waiting    int
	maxWaiting int
	// changed tells the metrics the numbers running and waiting.
	changed func(running, waiting int)
}

func newQueue(running, waiting int, changed func(running, waiting int)) *queue {
	if changed == nil {
		changed = func(int, int) {}
	}
	return &queue{slots: make(chan struct{}, running), maxWaiting: waiting, changed: changed}
}

// acquire waits for a turn and returns its release; it fails at once
// when the queue is full, and when ctx ends while waiting.
func (q *queue) acquire(ctx context.Context) (func(), error) {
	select {
	case q.slots <- struct{}{}:
		q.report(0)
		return q.release, nil
	default:
	}
	q.mu.Lock()
	if q.waiting >= q.maxWaiting {
		q.mu.Unlock()
		return nil, status.Error(codes.ResourceExhausted,
			fmt.Sprintf("the server is busy: %d compiles running and %d waiting; try again later", cap(q.slots), q.maxWaiting))
	}
	q.waiting++
	q.mu.Unlock()
	q.report(0)
	defer q.report(-1)
	select {
	case q.slots <- struct{}{}:
		return q.release, nil
	case <-ctx.Done():
		return nil, contextStatus(ctx.Err(), "waiting for a turn")
	}
}

func (q *queue) release() {
	<-q.slots
	q.report(0)
}

// report tells the numbers, after adding delta to those waiting.
func (q *queue) report(delta int) {
	q.mu.Lock()
	q.waiting += delta
	waiting := q.waiting
	q.mu.Unlock()
	q.changed(len(q.slots), waiting)
}
