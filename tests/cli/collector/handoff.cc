// handoff.cc — handoff.c's hand-over in C++ (collector-sync.sh): the main
// thread starts 3 std::threads, works, writes 1024 ints and hands them over
// with a std::mutex, a flag and a std::condition_variable; consumer i sums
// them into result[i], which the main thread reads after the joins.
//
// The consumers are in their wait before the flag is set, whatever the
// timing: the main thread holds the mutex while it starts them and then
// waits (on a second condition variable) until all three have registered;
// the third to register wakes it, and the main thread gets the mutex back
// only when that one too has gone to sleep in its wait (which lets the
// mutex go). So each consumer looks at the flag exactly once before it is
// set. cv.wait and notify_* run inside libstdc++ (the runtime reaches them
// there); std::mutex::lock/unlock are inline, in this file's code.
// Prints "name 0xADDRESS" for the objects the test names.
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

constexpr int N = 1024, C = 3, WORK = 20000;

int data[N];
int result[C];
static int work[64];
std::mutex m;
std::condition_variable cv, cv_reg;
int ready, nreg;

static void consumer(int i)
{
    {
        std::unique_lock<std::mutex> l(m);
        if (++nreg == C)
            cv_reg.notify_one();
        cv.wait(l, [] { return ready != 0; });
    }
    int sum = 0;
    for (int k = 0; k < N; k++)
        sum += data[k];
    result[i] = sum;
}

int main()
{
    std::vector<std::thread> th;
    th.reserve(C);
    std::unique_lock<std::mutex> l(m);
    for (int i = 0; i < C; i++)
        th.emplace_back(consumer, i);
    cv_reg.wait(l, [] { return nreg == C; });
    l.unlock();

    for (int i = 0; i < WORK; i++)
        work[i & 63] += i;
    for (int k = 0; k < N; k++)
        data[k] = k + work[k & 63];
    {
        std::lock_guard<std::mutex> g(m);
        ready = 1;
    }
    cv.notify_all();
    for (auto &t : th)
        t.join();
    std::printf("data %p\nresult %p\nready %p\nnreg %p\nm %p\ncv %p\ncv_reg %p\n", (void *)data,
                (void *)result, (void *)&ready, (void *)&nreg, (void *)&m, (void *)&cv,
                (void *)&cv_reg);
    return result[0] == result[1] && result[1] == result[2] ? 0 : 1;
}
