// handoff20.cc — handoff.cc's hand-over with C++20's std::barrier (argv[1]
// "barrier") or std::counting_semaphore (otherwise), header code over
// atomics and raw futex waits and wakes (collector-sync.sh).
#include <barrier>
#include <cstring>
#include <semaphore>
#include <thread>
#include <vector>

constexpr int N = 1024, C = 3, WORK = 20000;

int data[N], result[C];
static int work[64];
static std::barrier<> bar(C + 1);
static std::counting_semaphore<C> sem(0);
static bool use_barrier;

static void consumer(int i)
{
    if (use_barrier)
        bar.arrive_and_wait();
    else
        sem.acquire();
    int sum = 0;
    for (int k = 0; k < N; k++)
        sum += data[k];
    result[i] = sum;
}

int main(int argc, char **argv)
{
    use_barrier = argc > 1 && !std::strcmp(argv[1], "barrier");
    std::vector<std::thread> th;
    for (int i = 0; i < C; i++)
        th.emplace_back(consumer, i);
    for (int i = 0; i < WORK; i++)
        work[i & 63] += i;
    for (int k = 0; k < N; k++)
        data[k] = k + work[k & 63];
    if (use_barrier)
        bar.arrive_and_wait();
    else
        sem.release(C);
    for (auto &t : th)
        t.join();
    return result[0] == result[1] && result[1] == result[2] ? 0 : 1;
}
